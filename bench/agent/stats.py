"""Statistics for both benchmarks: medians, the knee, a paired permutation test and a
percentile bootstrap interval. Stdlib only; every random draw comes from a seeded RNG, so
a results file can be recomputed to the digit.

Why a permutation test and not a t-test: session costs are few, skewed, and now and then
carry a 2x outlier, which is the case a t-test handles worst. Under the null hypothesis
that the filter changes nothing, each pair's difference is as likely to have either sign,
so the p-value is the share of the 2^n sign assignments whose mean difference is at least
as far from zero as the observed one. With n pairs the smallest two-sided p it can produce
is 2 / 2^n (the observed signs and their mirror image), so five pairs can never come back
below 0.0625 however large the effect; the default of eight pairs gets down to 0.0078.
"""

from __future__ import annotations

import itertools
import random
import statistics

EXACT_LIMIT = 20  # 2^20 sign assignments is about a million: still quick to enumerate
EPS = 1e-9  # tolerance when comparing means that are equal in exact arithmetic


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def smallest_p(n: int) -> float:
    """The smallest two-sided p-value a paired sign-flip test over n pairs can produce."""
    return 1.0 if n == 0 else min(1.0, 2 / 2**n)


def permutation_test(
    diffs: list[float], *, rounds: int = 100_000, seed: int = 1, exact_limit: int = EXACT_LIMIT
) -> tuple[float, str]:
    """Two-sided paired permutation (sign-flip) test of mean(diffs) == 0.

    Returns (p, method): exact enumeration of all 2^n sign assignments when n <= 20, else
    a seeded Monte Carlo estimate (count + 1) / (rounds + 1)."""
    n = len(diffs)
    if n == 0:
        return 1.0, "none"
    observed = abs(sum(diffs))  # |mean| ordering is |sum| ordering for fixed n
    if n <= exact_limit:
        hits = 0
        for signs in itertools.product((1, -1), repeat=n):
            if abs(sum(s * d for s, d in zip(signs, diffs, strict=True))) >= observed - EPS:
                hits += 1
        return hits / 2**n, "exact"
    rng = random.Random(seed)
    hits = 0
    for _ in range(rounds):
        total = sum(d if rng.random() < 0.5 else -d for d in diffs)
        if abs(total) >= observed - EPS:
            hits += 1
    return (hits + 1) / (rounds + 1), f"monte carlo ({rounds} rounds, seed {seed})"


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-quantile (0..1) of already sorted values, linear between order statistics."""
    if not sorted_values:
        raise ValueError("percentile of nothing")
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def bootstrap_mean_ci(
    diffs: list[float], *, level: float = 0.95, rounds: int = 10_000, seed: int = 1
) -> tuple[float, float]:
    """Percentile bootstrap interval for the mean of paired differences: resample the
    pairs with replacement `rounds` times from a seeded RNG."""
    if not diffs:
        raise ValueError("bootstrap of nothing")
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(rng.choices(diffs, k=n)) / n for _ in range(rounds))
    tail = (1 - level) / 2
    return percentile(means, tail), percentile(means, 1 - tail)


def knee(rates: list[tuple[str, float | None]], tolerance: float = 0.0) -> str | None:
    """The first variant along the ladder whose success rate falls below the first one's
    (the raw control's) by more than `tolerance`; None when success never falls.

    Variants with no counted cells (rate None) are skipped: a cell the sweep did not get
    is not evidence either way. Without a counted control there is nothing to fall from."""
    if not rates or rates[0][1] is None:
        return None
    base = rates[0][1]
    for name, rate in rates[1:]:
        if rate is None:
            continue
        if rate < base - tolerance - EPS:
            return name
    return None

"""The statistics against values derived by hand or by an independent enumeration."""

import itertools
import unittest

from bench.agent import stats


def exact_bootstrap_quantile(values, q):
    """Independent: the exact bootstrap distribution of the mean (every one of the n^n
    equally likely resamples), and its q-quantile by the same interpolation rule."""
    n = len(values)
    means = sorted(sum(c) / n for c in itertools.product(values, repeat=n))
    return stats.percentile(means, q), means


class PermutationTest(unittest.TestCase):
    def test_three_pairs_by_hand(self):
        # Signed sums of (1, 2, 3): 6, 0, 2, -4, 4, -2, 0, -6; |sum| >= 6 twice in eight.
        p, method = stats.permutation_test([1, 2, 3])
        self.assertEqual(method, "exact")
        self.assertAlmostEqual(p, 2 / 8)

    def test_four_pairs_by_hand(self):
        # +5 with (+-1, +-1, +-2) gives 9, 5, 7, 3, 7, 3, 5, 1: three reach |7|; the
        # mirror image three more; 6 of 16.
        p, _ = stats.permutation_test([1, -1, 2, 5])
        self.assertAlmostEqual(p, 6 / 16)

    def test_no_difference_is_p_one(self):
        self.assertEqual(stats.permutation_test([0, 0, 0])[0], 1.0)

    def test_all_one_sign_reaches_the_floor(self):
        diffs = [3, 1, 4, 1, 5, 9, 2, 6]
        self.assertAlmostEqual(stats.permutation_test(diffs)[0], stats.smallest_p(8))

    def test_floor_values(self):
        self.assertAlmostEqual(stats.smallest_p(5), 0.0625)
        self.assertAlmostEqual(stats.smallest_p(8), 2 / 256)
        self.assertEqual(stats.smallest_p(1), 1.0)

    def test_monte_carlo_agrees_with_exact(self):
        diffs = [4, -1, 3, 2, -2, 5, 1, -3, 2, 6]
        exact, _ = stats.permutation_test(diffs)
        approx, method = stats.permutation_test(diffs, rounds=20_000, seed=7, exact_limit=5)
        self.assertTrue(method.startswith("monte carlo"))
        self.assertAlmostEqual(approx, exact, delta=0.015)

    def test_monte_carlo_is_seeded(self):
        diffs = list(range(1, 23))
        a = stats.permutation_test(diffs, rounds=500, seed=3)
        self.assertEqual(a, stats.permutation_test(diffs, rounds=500, seed=3))
        self.assertAlmostEqual(a[0], 1 / 501)  # no flip of 22 positive values reaches it


class Bootstrap(unittest.TestCase):
    def test_percentile_by_hand(self):
        self.assertEqual(stats.percentile([1, 2, 3, 4], 0.5), 2.5)
        self.assertEqual(stats.percentile([1, 2, 3, 4], 0.0), 1)
        self.assertEqual(stats.percentile([1, 2, 3, 4], 1.0), 4)
        self.assertAlmostEqual(stats.percentile([0, 10], 0.25), 2.5)

    def test_agrees_with_exact_enumeration(self):
        values = [1, 2, 3, 4]
        lo, means = exact_bootstrap_quantile(values, 0.025)
        hi, _ = exact_bootstrap_quantile(values, 0.975)
        self.assertEqual(len(means), 256)
        got = stats.bootstrap_mean_ci(values, rounds=20_000, seed=5)
        # One step of the exact distribution is 0.25.
        self.assertAlmostEqual(got[0], lo, delta=0.25)
        self.assertAlmostEqual(got[1], hi, delta=0.25)

    def test_constant_differences_give_a_point(self):
        self.assertEqual(stats.bootstrap_mean_ci([7, 7, 7], rounds=100), (7, 7))

    def test_seeded(self):
        values = [5, -3, 8, 1, 0]
        self.assertEqual(
            stats.bootstrap_mean_ci(values, seed=9), stats.bootstrap_mean_ci(values, seed=9)
        )


class Knee(unittest.TestCase):
    def test_first_fall_along_the_ladder(self):
        rates = [("raw", 1.0), ("lens-2", 1.0), ("lens-1", 0.67), ("lens-0", 0.33)]
        self.assertEqual(stats.knee(rates), "lens-1")

    def test_no_fall_is_no_knee(self):
        self.assertIsNone(stats.knee([("raw", 1.0), ("lens-2", 1.0), ("lens-0", 1.0)]))

    def test_better_than_raw_is_not_a_knee(self):
        self.assertIsNone(stats.knee([("raw", 0.67), ("lens-2", 1.0)]))

    def test_uncounted_variants_are_skipped(self):
        rates = [("raw", 1.0), ("lens-2", None), ("lens-1", 0.5)]
        self.assertEqual(stats.knee(rates), "lens-1")

    def test_no_control_no_knee(self):
        self.assertIsNone(stats.knee([("raw", None), ("lens-2", 0.0)]))

    def test_tolerance(self):
        rates = [("raw", 1.0), ("lens-2", 0.9), ("lens-1", 0.5)]
        self.assertEqual(stats.knee(rates, tolerance=0.2), "lens-1")


class Median(unittest.TestCase):
    def test_median(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)
        self.assertIsNone(stats.median([]))


if __name__ == "__main__":
    unittest.main()

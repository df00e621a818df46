"""A script that prints a 5,000-line CI log in which one line matters.

The log is what a monorepo's CI runner prints while its tasks run side by side: restores
from a build cache, cargo compiling crates, CMake building C++ objects, Rust tests passing,
and a service under a smoke test logging one timestamped INFO line per request. The tasks
interleave in short runs, as parallel jobs do. Exactly one line, about halfway through, is
an ERROR from the service. Everything comes from a seeded generator, so every run prints
the same lines.
"""

import sys
from pathlib import Path

root = Path(sys.argv[1])
(root / "ci_log.py").write_text(
    r'''"""Print the log of one CI run: five kinds of routine lines and one error."""

import random

CRATES = [
    "autocfg", "bitflags", "bytes", "cfg-if", "crossbeam-utils", "either", "futures-core",
    "hashbrown", "indexmap", "itoa", "libc", "log", "memchr", "mio", "once_cell",
    "parking_lot", "pin-project-lite", "proc-macro2", "quote", "rand", "regex-syntax",
    "ryu", "serde", "serde_json", "smallvec", "socket2", "syn", "thiserror", "tokio",
    "tracing", "unicode-ident", "uuid",
]
MODULES = ["orders", "payments", "catalog", "accounts", "shipping", "search", "auth", "cart"]
VERBS = ["creates", "rejects", "updates", "lists", "deletes", "parses", "renders", "merges"]
NOUNS = ["empty_input", "duplicate_id", "unicode_name", "large_batch", "expired_token",
         "missing_field", "zero_quantity", "negative_price", "long_description", "null_id",
         "stale_cache", "utc_offset", "max_page", "trailing_slash", "mixed_case",
         "retry_after", "partial_refund", "currency_code", "empty_cart", "bad_signature"]
SUFFIXES = ["", "-core", "-macros", "-impl", "-derive", "-sys"]
ROUTES = ["GET /v1/orders/{n}", "GET /v1/catalog?page={n}", "POST /v1/cart/{n}/items",
          "GET /v1/accounts/{n}", "PUT /v1/orders/{n}/status", "GET /healthz"]
CPP_DIRS = ["geometry", "io", "render", "physics", "audio", "net"]
TOTAL = 5000
ERROR_AT = 2517


def main():
    rng = random.Random(5000)
    state = {"ms": 0, "cpp": 0}
    cpp_total = 980
    tests = [f"{m}::tests::{v}_{n}" for m in MODULES for v in VERBS for n in NOUNS]
    rng.shuffle(tests)
    crates = [c + s for c in CRATES for s in SUFFIXES]
    rng.shuffle(crates)
    printed = 0

    def clock():
        state["ms"] += rng.randint(40, 900)
        s, ms = divmod(state["ms"], 1000)
        m, s = divmod(s, 60)
        return f"2026-03-14T09:{12 + m:02}:{s:02}.{ms:03}Z"

    def request():
        route = rng.choice(ROUTES).format(n=rng.randint(1000, 99999))
        return (
            f"{clock()} INFO  api: {route} 200 "
            f"{rng.randint(2, 40)}ms req={rng.getrandbits(32):08x}"
        )

    def test_line():
        return f"test {tests.pop()} ... ok"

    def cpp_line():
        state["cpp"] = min(state["cpp"] + 1, cpp_total)
        pct = state["cpp"] * 100 // cpp_total
        d = rng.choice(CPP_DIRS)
        return (
            f"[{pct:3}%] Building CXX object src/engine/CMakeFiles/engine.dir/"
            f"{d}/{d}_{rng.randint(1, 80):02}.cpp.o"
        )

    def crate_line():
        crate = crates.pop()
        return f"   Compiling {crate} v{rng.randint(0, 2)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}"

    def cache_line():
        key = f"{rng.getrandbits(48):012x}"
        task = rng.choice(["engine:build", "api:build", "web:build", "api:test", "docs:build"])
        return f"{task}: cache hit, replaying logs {key}"

    # A task that has run every test or built every crate stops printing.
    kinds = [(request, None), (test_line, tests), (cpp_line, None), (crate_line, crates)]
    kinds.append((cache_line, None))
    weights = [40, 22, 16, 4, 18]
    while printed < TOTAL:
        kind, pool = rng.choices(kinds, weights)[0]
        for _ in range(rng.randint(1, 20)):
            if printed == TOTAL or pool == []:
                break
            printed += 1
            if printed == ERROR_AT:
                print(
                    f"{clock()} ERROR api: POST /v1/payments 500 3ms "
                    'req=9c41e07a error="pq: duplicate key value violates unique constraint '
                    '\\"payments_idempotency_key\\""'
                )
            else:
                print(kind())


if __name__ == "__main__":
    main()
'''
)

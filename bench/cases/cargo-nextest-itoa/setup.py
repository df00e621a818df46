"""The itoa 1.0.19 crate as published on crates.io, tested with cargo-nextest after two faults.

The first fault is in the library: `div_rem_1e16`, which splits a 128-bit value into its low
16 decimals and the rest, shifts its multiply-high by one bit too many, so the parts it
returns for a value of more than 16 digits are wrong and a debug assertion further down
(`value < 10_000`, src/lib.rs:232) panics. Three tests fail from that one cause. The second
is a test's own typo, with its `left`/`right` pair: `test_u64_half` expects `4294967296`.
nextest runs each test in its own process and prints every failing one's captured output
under its `FAIL` line, then the tally and the failing tests again.

Input: itoa-1.0.19.crate, which this repository's Cargo.lock pins (serde_json depends on
it), read from cargo's download cache; `cargo fetch` in this repository fills it. The
archive is checked against the checksum Cargo.lock records. Its optional `no-panic`
dependency becomes an empty feature of that name and its benchmark's `criterion` is dropped
from Cargo.toml, so the build needs no other crate.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.sources import inject, unpack_itoa

root = Path(sys.argv[1])
unpack_itoa(root)
inject(
    root,
    [
        ("src/lib.rs", "const SH_POST: u8 = 51;", "const SH_POST: u8 = 52;"),
        ("tests/test.rs", '"4294967295"', '"4294967296"'),
    ],
)

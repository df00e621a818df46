"""The regex-syntax 0.8.12 crate as published on crates.io, unpacked for `cargo test`.

A real crate with unit tests and doc tests, and with the lockfile it was published with,
so `cargo test` builds it without the network. Its run is what `lens cargo test 2>&1 |
tail` is about: cargo's progress (`Compiling`, `Running`, `Doc-tests`) goes to stderr
while the test binaries' results go to stdout, and the two arrive interleaved.

Input: regex-syntax-0.8.12.crate, which this repository's Cargo.lock pins (regex depends
on it), read from cargo's download cache. Re-recording needs that cache: `cargo fetch` in
this repository fills it. The archive is checked against the checksum Cargo.lock records
for it; the fixture recorded from it is what the tests read.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.sources import unpack_crate

unpack_crate(
    "regex-syntax-0.8.12.crate",
    "d902046e6a28a1e4c3cab97258a0ce11e994903f01c2d97a9447a0b3df85f4f6",
    Path(sys.argv[1]),
)

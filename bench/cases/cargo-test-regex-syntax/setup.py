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

import hashlib
import os
import sys
import tarfile
from pathlib import Path

CRATE = "regex-syntax-0.8.12.crate"
SHA256 = "d902046e6a28a1e4c3cab97258a0ce11e994903f01c2d97a9447a0b3df85f4f6"

root = Path(sys.argv[1])
cargo_home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
found = sorted(cargo_home.glob(f"registry/cache/*/{CRATE}"))
if not found:
    sys.exit(f"{CRATE} is not in {cargo_home}/registry; run `cargo fetch` in the repository")
if hashlib.sha256(found[0].read_bytes()).hexdigest() != SHA256:
    sys.exit(f"{found[0]} is not the archive this fixture was recorded from")
with tarfile.open(found[0]) as archive:
    for member in archive.getmembers():
        member.name = member.name.split("/", 1)[1] if "/" in member.name else "."
        archive.extract(member, root, filter="data")

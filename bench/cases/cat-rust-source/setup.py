"""A real Rust source file of 3,750 lines: regex-syntax 0.8.12's src/hir/translate.rs.

The file is the translator from regex syntax trees to HIR. It mentions "error" 110 times
and "invalid" 28 times (error types, doc comments and tests of invalid patterns), which is
what makes a printed source file look like diagnostics to a filter that hunts for words.

Input: the regex-syntax 0.8.12 crate from crates.io, which this repository's Cargo.lock
pins (regex depends on it), read from cargo's registry cache. Re-recording needs that
cache: `cargo fetch` in this repository fills it. The copy is checked against the file's
SHA-256 so a different version cannot slip in; the fixtures recorded from it are what the
tests read.
"""

import hashlib
import os
import sys
from pathlib import Path

CRATE = "regex-syntax-0.8.12"
FILE = "src/hir/translate.rs"
SHA256 = "d0abd23332bef4f1f24a84b9dfebf5397a2bd07ef0cd42f22b4f98b1d7b99e4a"

root = Path(sys.argv[1])
cargo_home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
found = sorted(cargo_home.glob(f"registry/src/*/{CRATE}/{FILE}"))
if not found:
    sys.exit(f"{CRATE} is not in {cargo_home}/registry; run `cargo fetch` in the repository")
data = found[0].read_bytes()
if hashlib.sha256(data).hexdigest() != SHA256:
    sys.exit(f"{found[0]} is not the file these fixtures were recorded from")
(root / "src" / "hir").mkdir(parents=True)
(root / FILE).write_bytes(data)

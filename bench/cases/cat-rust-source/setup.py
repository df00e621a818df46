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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.sources import from_cargo_cache

FILE = "src/hir/translate.rs"

root = Path(sys.argv[1])
data = from_cargo_cache(
    f"src/*/regex-syntax-0.8.12/{FILE}",
    "d0abd23332bef4f1f24a84b9dfebf5397a2bd07ef0cd42f22b4f98b1d7b99e4a",
)
(root / "src" / "hir").mkdir(parents=True)
(root / FILE).write_bytes(data)

"""The aho-corasick 1.1.5 crate as published on crates.io, with one test made to fail.

What an agent's harness runs far more often than a bare `cargo test`: the run through
`bash -c`, piped into `tail`, which cuts the output where it likes, here inside a panic's
backtrace (RUST_BACKTRACE=1, set in .cargo/config.toml [env]). The view opens on the
second half of a standard-library frame, with no frame name above it.

Input: aho-corasick-1.1.5.crate, which this repository's Cargo.lock pins (regex depends
on it), read from cargo's download cache; `cargo fetch` in this repository fills it. The
archive is checked against the checksum Cargo.lock records. The fault: the
`elements_singletons` test expects 257 byte classes where there are 256.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.sources import inject, unpack_crate

root = Path(sys.argv[1])
unpack_crate(
    "aho-corasick-1.1.5.crate",
    "c982642fa9e8606056828ee9a8505737230110bb1099153c79efe865c59d12ba",
    root,
)
inject(
    root,
    [
        (
            "src/util/alphabet.rs",
            "assert_eq!(classes.alphabet_len(), 256);",
            "assert_eq!(classes.alphabet_len(), 257);",
        )
    ],
)
(root / ".cargo").mkdir()
(root / ".cargo" / "config.toml").write_text('[env]\nRUST_BACKTRACE = "1"\n')

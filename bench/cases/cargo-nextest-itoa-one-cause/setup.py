"""The itoa 1.0.19 crate as published on crates.io, with a guard no buffer can pass.

`Buffer::new` gains `assert!(i128::MAX_STR_LEN > 40, ...)`, a check of a capacity the
buffer is not meant to have: each of the ten tests that format a number panics there with
the same message, in its own process under cargo-nextest, and prints that panic under its
own `FAIL` line. One cause, ten sections.

Input: itoa-1.0.19.crate from cargo's download cache, as bench.sources.unpack_itoa reads it.
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
        (
            "src/lib.rs",
            "    pub fn new() -> Buffer {\n",
            "    pub fn new() -> Buffer {\n"
            "        assert!(i128::MAX_STR_LEN > 40, "
            '"Buffer::new: room for a sign and 40 digits");\n',
        )
    ],
)

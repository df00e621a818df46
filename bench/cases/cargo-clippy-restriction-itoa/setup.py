"""The itoa 1.0.19 crate as published on crates.io, to be linted with restriction lints.

`cargo clippy` with `missing_inline_in_public_items`, `as_conversions` and
`arithmetic_side_effects` warns 194 times in a crate this small: floods of three kinds,
each at many places. The warning on `Buffer::format` quotes a span of eight lines, which
rustc shortens with a `...   |` line in its gutter; that line is inside the warning.

Input: itoa-1.0.19.crate from cargo's download cache, as bench.sources.unpack_itoa reads it;
nothing is changed in it.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.sources import unpack_itoa

unpack_itoa(Path(sys.argv[1]))

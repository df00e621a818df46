"""The itoa 1.0.19 crate as published on crates.io, with the helper its macros call deprecated.

itoa implements its integer formatting in two macros (`impl_Integer!`, `impl_Integer_size!`),
invoked once per integer type. Marking the private helper they call, `slice_buffer_to_str`,
`#[deprecated]` (a plausible first step of replacing it) makes rustc warn at the call's
place inside the macro once per invocation: 10 warnings at two places, told apart only by
the `185 | impl_Integer!(i8, u8);` line over each `in this macro invocation` label.

Input: itoa-1.0.19.crate, which this repository's Cargo.lock pins (serde_json depends on
it), read from cargo's download cache; `cargo fetch` in this repository fills it. The
archive is checked against the checksum Cargo.lock records. Its optional `no-panic`
dependency becomes an empty feature of that name and its benchmark's `criterion` is
dropped from Cargo.toml, so the build needs no other crate.
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
            "unsafe fn slice_buffer_to_str(",
            '#[deprecated(note = "use `str_from_tail`, which checks the offset")]\n'
            "unsafe fn slice_buffer_to_str(",
        ),
    ],
)

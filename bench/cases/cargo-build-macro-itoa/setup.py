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
from bench.sources import inject, unpack_crate

root = Path(sys.argv[1])
unpack_crate(
    "itoa-1.0.19.crate",
    "3bd1574e617a9a6c1f8f8181bd7e841e1f20e4277607ef28945765188d6284d4",
    root,
)
(root / "Cargo.lock").unlink()
inject(
    root,
    [
        (
            "Cargo.toml",
            '[dependencies.no-panic]\nversion = "0.1"\noptional = true\n',
            "[features]\nno-panic = []\n",
        ),
        (
            "Cargo.toml",
            '[target."cfg(not(miri))".dev-dependencies.criterion]\n'
            'version = "0.8"\ndefault-features = false\n',
            "",
        ),
        (
            "src/lib.rs",
            "unsafe fn slice_buffer_to_str(",
            '#[deprecated(note = "use `str_from_tail`, which checks the offset")]\n'
            "unsafe fn slice_buffer_to_str(",
        ),
    ],
)

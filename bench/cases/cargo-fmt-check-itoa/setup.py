"""The itoa 1.0.19 crate as published on crates.io, edited as someone in a hurry would.

Seven statements lose the spaces around `=` and a new helper, `digits_of`, goes in on one
line after `div_rem_1e16`: the build is fine and `cargo fmt --check` fails, printing one
`Diff in /path/src/lib.rs:N:` hunk per place it would reformat (rustfmt's own diff shape,
not git's), with exit status 1.

Input: itoa-1.0.19.crate from cargo's download cache, as bench.sources.unpack_itoa reads it.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.sources import inject, unpack_itoa

root = Path(sys.argv[1])
unpack_itoa(root)
squeezed = [
    "let bytes = [MaybeUninit::<u8>::uninit(); i128::MAX_STR_LEN];",
    "let buf_ptr = self.bytes.as_mut_ptr().cast::<I::Buffer>();",
    "let string = i.write(unsafe { &mut *buf_ptr });",
    "let written = unsafe { buf.get_unchecked(offset..) };",
    "let quot = u128_ext::mulhi(n, M_HIGH) >> SH_POST;",
    "let rem = n - quot * D;",
    "let mut remain = n;",
]
inject(
    root,
    [("src/lib.rs", line, line.replace(" = ", "=", 1)) for line in squeezed]
    + [
        (
            "src/lib.rs",
            "    (quot, rem as u64)\n}\n",
            "    (quot, rem as u64)\n}\n\n"
            "fn digits_of(n:u64)->usize{ if n==0 {1} else {n.ilog10() as usize+1} }\n",
        )
    ],
)

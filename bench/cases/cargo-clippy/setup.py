"""A crate that compiles and carries several clippy lints, one of them at 90 places.

Nine modules of ten functions each end in `return value;` (clippy::needless_return); a few
functions add len_zero, bool_comparison, ptr_arg, identity_op and manual_range_contains, so the
run reports several distinct lint identifiers, one of them many times.
"""

import sys
from pathlib import Path

MODULES = 9
FUNCTIONS = 10

root = Path(sys.argv[1])
(root / "src").mkdir(parents=True, exist_ok=True)
(root / "Cargo.toml").write_text(
    '[package]\nname = "metrics"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
)
lib = [f"pub mod stage_{m};" for m in range(MODULES)]
lib += [
    "",
    "pub fn is_empty_batch(batch: &Vec<u32>) -> bool {",
    "    batch.len() == 0",
    "}",
    "",
    "pub fn enabled(flag: bool) -> bool {",
    "    if flag == true {",
    "        return true;",
    "    }",
    "    false",
    "}",
    "",
    "pub fn label(name: &String) -> String {",
    "    let copy = name.clone();",
    "    copy.clone()",
    "}",
    "",
    "pub fn in_band(x: u32) -> bool {",
    "    x >= 10 && x <= 20",
    "}",
    "",
]
(root / "src" / "lib.rs").write_text("\n".join(lib))
for m in range(MODULES):
    lines = []
    for f in range(FUNCTIONS):
        lines += [
            f"pub fn score_{f}(samples: &[u32]) -> u32 {{",
            f"    let total: u32 = samples.iter().map(|s| s * {f + 1}).sum();",
            f"    return total / {m + 2};",
            "}",
            "",
        ]
    (root / "src" / f"stage_{m}.rs").write_text("\n".join(lines))

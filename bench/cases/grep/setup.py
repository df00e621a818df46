"""A Rust source tree of forty files in which `pub fn` occurs about 230 times.

Each file declares a handful of public functions; one of them, `pub fn retry_budget` in
src/net/client_07.rs, is the definition a reader searched for among all the others.
"""

import sys
from pathlib import Path

root = Path(sys.argv[1])
FOLDERS = ["core", "net", "store", "ui"]
for f, folder in enumerate(FOLDERS):
    d = root / "src" / folder
    d.mkdir(parents=True, exist_ok=True)
    for i in range(10):
        n = f * 10 + i
        lines = [f"//! Part {n} of the {folder} layer.", ""]
        for k in range(3 + n % 5):
            lines += [
                f"pub fn {folder}_op_{n}_{k}(input: &str) -> usize {{",
                f"    input.len() + {k}",
                "}",
                "",
                f"fn {folder}_helper_{n}_{k}() -> u32 {{",
                f"    {n * k}",
                "}",
                "",
            ]
        if folder == "net" and i == 7:
            lines += ["pub fn retry_budget(attempts: u32) -> u32 {", "    attempts * 2", "}", ""]
        (d / f"client_{i:02}.rs").write_text("\n".join(lines))

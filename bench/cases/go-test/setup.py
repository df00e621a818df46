"""A Go module with three packages of tests: one passes, two have failures."""

import sys
from pathlib import Path

root = Path(sys.argv[1])
(root / "go.mod").write_text("module example.com/rates\n\ngo 1.19\n")
PACKAGES = {"convert": {3}, "fees": set(), "round": {1, 6}}
for pkg, failing in PACKAGES.items():
    d = root / pkg
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{pkg}.go").write_text(
        f"package {pkg}\n\nfunc Scale(v, pct int) int {{\n\treturn v * pct / 100\n}}\n"
    )
    lines = [f"package {pkg}", "", 'import "testing"', ""]
    for t in range(8):
        v, pct = 100 + 25 * t, 10 + t
        want = v * pct // 100 + (1 if t in failing else 0)
        lines += [
            f"func TestScale{t}(t *testing.T) {{",
            f"\tif got := Scale({v}, {pct}); got != {want} {{",
            f'\t\tt.Errorf("Scale({v}, {pct}) = %d, want {want}", got)',
            "\t}",
            "}",
            "",
        ]
    (d / f"{pkg}_test.go").write_text("\n".join(lines))

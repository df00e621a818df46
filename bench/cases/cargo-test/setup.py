"""A library crate with 80 unit tests: 74 pass, five fail an assertion, one panics.

The failures sit in different modules so a view that keeps only the first few failures
loses the rest; the panic comes from an `unwrap` on `None` rather than an assertion.
"""

import sys
from pathlib import Path

root = Path(sys.argv[1])
(root / "src").mkdir(parents=True, exist_ok=True)
(root / "Cargo.toml").write_text(
    '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
)
MODULES = ["accounts", "budget", "currency", "import", "journal", "report", "tax", "totals"]
FAILING = {
    ("accounts", 3): "assert_eq",
    ("budget", 7): "assert_eq",
    ("currency", 1): "assert_eq",
    ("journal", 5): "panic",
    ("tax", 2): "assert_eq",
    ("totals", 9): "assert_eq",
}
lib = [f"pub mod {m};" for m in MODULES] + [""]
(root / "src" / "lib.rs").write_text("\n".join(lib))
for i, module in enumerate(MODULES):
    lines = [
        "pub fn apply(cents: i64, rate: i64) -> i64 {",
        "    cents * rate / 100",
        "}",
        "",
        "pub fn lookup(codes: &[&str], wanted: &str) -> Option<usize> {",
        "    codes.iter().position(|c| *c == wanted)",
        "}",
        "",
        "#[cfg(test)]",
        "mod tests {",
        "    use super::*;",
        "",
    ]
    for t in range(10):
        cents = 1000 + 37 * (i * 10 + t)
        rate = 5 + t
        expected = cents * rate // 100
        kind = FAILING.get((module, t))
        lines.append("    #[test]")
        lines.append(f"    fn {module}_case_{t}() {{")
        if kind == "assert_eq":
            lines.append(f"        assert_eq!(apply({cents}, {rate}), {expected + 1});")
        elif kind == "panic":
            lines.append('        let at = lookup(&["EUR", "USD"], "GBP").unwrap();')
            lines.append("        assert_eq!(at, 2);")
        else:
            lines.append(f"        assert_eq!(apply({cents}, {rate}), {expected});")
        lines += ["    }", ""]
    lines += ["}", ""]
    (root / "src" / f"{module}.rs").write_text("\n".join(lines))

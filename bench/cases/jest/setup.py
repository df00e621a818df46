"""A CommonJS project with four jest test files; two tests fail in two of them.

jest keeps its cache (and the timings it prints as "estimated") in the case directory, so
every run is a first run.
"""

import sys
from pathlib import Path

root = Path(sys.argv[1])
(root / "package.json").write_text(
    '{\n  "name": "pricing",\n  "private": true,\n'
    '  "jest": { "transform": {}, "cacheDirectory": ".jest-cache" }\n}\n'
)
(root / "src").mkdir(parents=True, exist_ok=True)
(root / "src" / "price.js").write_text(
    """function withTax(cents, rate) {
  return Math.round(cents * (1 + rate));
}

function parseAmount(text) {
  const value = Number.parseFloat(text);
  if (Number.isNaN(value)) {
    throw new Error(`not an amount: ${text}`);
  }
  return Math.round(value * 100);
}

module.exports = { withTax, parseAmount };
"""
)
SUITES = {
    "tax": [
        ("adds 20% tax", "withTax(1000, 0.2)", "1200"),
        ("adds 5% tax", "withTax(999, 0.05)", "1048"),
    ],
    "parse": [
        ("parses cents", 'parseAmount("12.34")', "1234"),
        ("parses euro", 'parseAmount("€5")', "500"),
    ],
    "round": [
        ("rounds down", "withTax(101, 0.1)", "111"),
        ("rounds half", "withTax(105, 0.1)", "116"),
    ],
    "zero": [("zero stays zero", "withTax(0, 0.2)", "0"), ("zero rate", "withTax(250, 0)", "250")],
}
for name, cases in SUITES.items():
    lines = ["const { withTax, parseAmount } = require('../src/price');", ""]
    lines.append(f"describe('{name}', () => {{")
    for title, expr, expected in cases:
        lines.append(f"  test('{title}', () => {{")
        lines.append(f"    expect({expr}).toBe({expected});")
        lines.append("  });")
    lines.append("});")
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests" / f"{name}.test.js").write_text("\n".join(lines) + "\n")

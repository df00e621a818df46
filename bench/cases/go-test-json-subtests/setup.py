"""A Go module whose table-driven tests run subtests, some of them in parallel.

`units.Grams` reads `kg` as 100 grams instead of 1000, so the `kg` cases of the table fail
in both tests: TestGrams runs its cases one after another, TestGramsParallel marks each
case t.Parallel(), so the events of its cases interleave. TestPounds passes.
"""

import sys
from pathlib import Path

root = Path(sys.argv[1])
(root / "go.mod").write_text("module example.com/units\n\ngo 1.19\n")
units = root / "units"
units.mkdir(parents=True, exist_ok=True)
(units / "units.go").write_text(
    "package units\n\n"
    "// Grams converts an amount in unit to grams.\n"
    "func Grams(amount int, unit string) int {\n"
    "\tswitch unit {\n"
    '\tcase "kg":\n\t\treturn amount * 100\n'
    '\tcase "lb":\n\t\treturn amount * 454\n'
    "\t}\n\treturn amount\n}\n"
)
CASES = [
    ("1kg", 1, "kg", 1000),
    ("250g", 250, "g", 250),
    ("3kg", 3, "kg", 3000),
    ("2lb", 2, "lb", 908),
]
table = "\n".join(f'\t{{"{n}", {a}, "{u}", {w}}},' for n, a, u, w in CASES)
(units / "units_test.go").write_text(
    "package units\n\n"
    'import "testing"\n\n'
    "var cases = []struct {\n\tname   string\n\tamount int\n\tunit   string\n\twant   int\n}{\n"
    + table
    + "\n}\n\n"
    "func TestGrams(t *testing.T) {\n"
    "\tfor _, c := range cases {\n"
    "\t\tt.Run(c.name, func(t *testing.T) {\n"
    "\t\t\tif got := Grams(c.amount, c.unit); got != c.want {\n"
    '\t\t\t\tt.Errorf("Grams(%d, %q) = %d, want %d", c.amount, c.unit, got, c.want)\n'
    "\t\t\t}\n\t\t})\n\t}\n}\n\n"
    "func TestGramsParallel(t *testing.T) {\n"
    "\tfor _, c := range cases {\n"
    "\t\tc := c\n"
    "\t\tt.Run(c.name, func(t *testing.T) {\n"
    "\t\t\tt.Parallel()\n"
    "\t\t\tif got := Grams(c.amount, c.unit); got != c.want {\n"
    '\t\t\t\tt.Errorf("Grams(%d, %q) = %d, want %d", c.amount, c.unit, got, c.want)\n'
    "\t\t\t}\n\t\t})\n\t}\n}\n\n"
    "func TestPounds(t *testing.T) {\n"
    '\tif got := Grams(1, "lb"); got != 454 {\n'
    '\t\tt.Errorf("Grams(1, \\"lb\\") = %d, want 454", got)\n'
    "\t}\n}\n"
)

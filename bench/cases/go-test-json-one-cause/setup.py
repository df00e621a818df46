"""A Go ledger module whose `money` tests mostly fail from one wrong constant.

`money.CentsPerEuro` is 1000 where it should be 100, so every test that converts a price
to cents fails with `Cents(e, c) = x, want y`: 24 tests, one per product, named by word.
The `parse` package has one failure of its own: a quantity with a thousands separator is
refused by strconv. Four tests in `money` never touch the constant and pass.

Called with a second argument `fixed`, the constant and the parser are right and every
test passes (the go-test-json-pass case).
"""

import sys
from pathlib import Path

root = Path(sys.argv[1])
fixed = len(sys.argv) > 2 and sys.argv[2] == "fixed"
PRODUCTS = [
    ("Apples", 2, 49),
    ("Bread", 1, 89),
    ("Butter", 3, 15),
    ("Cheese", 7, 42),
    ("Coffee", 8, 99),
    ("Eggs", 2, 79),
    ("Flour", 1, 29),
    ("Honey", 6, 55),
    ("Lentils", 2, 19),
    ("Milk", 1, 9),
    ("Olives", 3, 99),
    ("Pasta", 1, 49),
    ("Pepper", 2, 89),
    ("Rice", 2, 35),
    ("Salmon", 12, 99),
    ("Salt", 0, 59),
    ("Sugar", 1, 39),
    ("Tea", 4, 59),
    ("Tomatoes", 3, 29),
    ("Yogurt", 0, 99),
    ("Almonds", 5, 75),
    ("Beans", 1, 19),
    ("Cocoa", 4, 25),
    ("Dates", 3, 85),
]

(root / "go.mod").write_text("module example.com/ledger\n\ngo 1.19\n")
money = root / "money"
money.mkdir(parents=True, exist_ok=True)
cents = 100 if fixed else 1000
(money / "money.go").write_text(
    "package money\n\n"
    "// CentsPerEuro is how many cents make one euro.\n"
    f"const CentsPerEuro = {cents}\n\n"
    "// Cents is a price in euros and cents, in cents.\n"
    "func Cents(euros, cents int) int {\n\treturn euros*CentsPerEuro + cents\n}\n\n"
    "// Round rounds cents to the nearest multiple of step.\n"
    "func Round(cents, step int) int {\n\treturn (cents + step/2) / step * step\n}\n"
)
lines = ["package money", "", 'import "testing"', ""]
for name, euros, c in PRODUCTS:
    want = euros * 100 + c
    lines += [
        f"func TestCents{name}(t *testing.T) {{",
        f"\tif got := Cents({euros}, {c}); got != {want} {{",
        f'\t\tt.Errorf("Cents({euros}, {c}) = %d, want {want}", got)',
        "\t}",
        "}",
        "",
    ]
for cents_in, step in [(101, 5), (149, 10), (250, 100), (7, 2)]:
    want = (cents_in + step // 2) // step * step
    lines += [
        f"func TestRound{cents_in}By{step}(t *testing.T) {{",
        f"\tif got := Round({cents_in}, {step}); got != {want} {{",
        f'\t\tt.Errorf("Round({cents_in}, {step}) = %d, want {want}", got)',
        "\t}",
        "}",
        "",
    ]
(money / "money_test.go").write_text("\n".join(lines))

parse = root / "parse"
parse.mkdir(parents=True, exist_ok=True)
clean = '\ts = strings.ReplaceAll(s, ",", "")\n' if fixed else ""
imports = 'import (\n\t"strconv"\n\t"strings"\n)\n' if fixed else 'import "strconv"\n'
(parse / "parse.go").write_text(
    "package parse\n\n" + imports + "\n// Quantity reads a count of items as written on an order.\n"
    "func Quantity(s string) (int, error) {\n" + clean + "\treturn strconv.Atoi(s)\n}\n"
)
(parse / "parse_test.go").write_text(
    "package parse\n\n"
    'import "testing"\n\n'
    "func TestQuantityPlain(t *testing.T) {\n"
    '\tif n, err := Quantity("12"); err != nil || n != 12 {\n'
    '\t\tt.Fatalf("Quantity(\\"12\\") = %d, %v", n, err)\n'
    "\t}\n}\n\n"
    "func TestQuantityWithThousandsSeparator(t *testing.T) {\n"
    '\tn, err := Quantity("1,200")\n'
    "\tif err != nil {\n"
    '\t\tt.Fatalf("Quantity: %v", err)\n'
    "\t}\n"
    "\tif n != 1200 {\n"
    '\t\tt.Errorf("Quantity = %d, want 1200", n)\n'
    "\t}\n}\n"
)

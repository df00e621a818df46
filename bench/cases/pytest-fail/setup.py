"""A package with eight test modules of ten tests each; six tests fail in five modules.

Failures differ in shape: plain assert comparisons (E lines with the compared values), an
exception raised inside the code under test (a traceback two frames deep), and a failure in
a parametrized test. Setting PASS_ONLY=1 writes the same tree with every test passing.
"""

import os
import sys
from pathlib import Path

PASS_ONLY = os.environ.get("PASS_ONLY") == "1"
MODULES = ["cart", "checkout", "discount", "inventory", "orders", "payments", "shipping", "users"]
FAILING = {
    ("cart", 4),
    ("discount", 1),
    ("discount", 8),
    ("orders", 6),
    ("payments", 2),
    ("users", 9),
}

root = Path(sys.argv[1])
(root / "shop").mkdir(parents=True, exist_ok=True)
(root / "tests").mkdir(exist_ok=True)
(root / "shop" / "__init__.py").write_text("")
(root / "shop" / "prices.py").write_text(
    """def total(items):
    return sum(price * qty for price, qty in items)


def apply_discount(amount, percent):
    if percent < 0 or percent > 100:
        raise ValueError(f"discount out of range: {percent}")
    return round(amount * (100 - percent) / 100, 2)
"""
)
(root / "pytest.ini").write_text("[pytest]\ntestpaths = tests\npythonpath = .\n")
for module in MODULES:
    lines = ["import pytest", "", "from shop.prices import apply_discount, total", "", ""]
    for t in range(10):
        failing = (module, t) in FAILING and not PASS_ONLY
        items = [(3 + t, 2), (10, 1 + t % 3)]
        expected = sum(p * q for p, q in items)
        lines.append(f"def test_{module}_{t}():")
        if failing and t % 3 == 0:
            lines.append(f"    assert total({items!r}) == {expected + 5}")
        elif failing and t % 3 == 1:
            lines.append(f"    assert apply_discount({expected}, {120 + t}) == {expected}")
        elif failing:
            lines.append(f"    result = {{'sum': total({items!r}), 'currency': 'EUR'}}")
            lines.append(f"    assert result == {{'sum': {expected}, 'currency': 'USD'}}")
        else:
            lines.append(f"    assert total({items!r}) == {expected}")
        lines += ["", ""]
    (root / "tests" / f"test_{module}.py").write_text("\n".join(lines).rstrip() + "\n")

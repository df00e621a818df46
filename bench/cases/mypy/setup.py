"""A four-module package with seven type errors of different codes in three modules."""

import sys
from pathlib import Path

root = Path(sys.argv[1])
pkg = root / "billing"
pkg.mkdir(parents=True, exist_ok=True)
(pkg / "__init__.py").write_text("")
(pkg / "money.py").write_text(
    """from dataclasses import dataclass


@dataclass
class Money:
    cents: int
    currency: str

    def add(self, other: "Money") -> "Money":
        return Money(self.cents + other.cents, self.currency)


def parse(text: str) -> Money:
    amount, currency = text.split()
    return Money(amount, currency)
"""
)
(pkg / "invoice.py").write_text(
    """from billing.money import Money


class Invoice:
    def __init__(self, number: int) -> None:
        self.number = number
        self.lines: list[Money] = []

    def total(self) -> Money:
        result = Money(0, "EUR")
        for line in self.lines:
            result = result.add(line.cents)
        return result

    def label(self) -> str:
        return "INV-" + self.number


def first_line(invoice: Invoice) -> Money:
    return invoice.lines[0] if invoice.lines else None
"""
)
(pkg / "report.py").write_text(
    """from billing.invoice import Invoice


def summary(invoices: list[Invoice]) -> dict[str, int]:
    out: dict[str, int] = {}
    for inv in invoices:
        out[inv.label()] = inv.total()
    return out


def count(invoices: list[Invoice]) -> str:
    return len(invoices)


def missing(invoice: Invoice) -> int:
    return invoice.due_date
"""
)
(pkg / "clean.py").write_text("""def ok(value: int) -> int:\n    return value * 2\n""")

"""An invoicing crate whose 153 unit tests mostly fail from one wrong constant.

`money::CENTS_PER_EURO` is 1000 where it should be 100, so every test that converts euros
to cents fails its assertion: 120 tests in six modules, most through `assert_eq!` (left and
right printed), some through `assert!` with a message. One more test fails for a reason of
its own: it unwraps a failed integer parse, a different panic in a different module. The
other 32 tests never touch money and pass. Test names are words, not numbers, so each
failing test is something a reader has to be told about by name.
"""

import sys
from pathlib import Path

root = Path(sys.argv[1])
(root / "src").mkdir(parents=True, exist_ok=True)
(root / "Cargo.toml").write_text(
    '[package]\nname = "invoice"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
)
PRODUCTS = [
    ("apples", 249),
    ("bread", 189),
    ("butter", 315),
    ("cheese", 742),
    ("coffee", 899),
    ("eggs", 279),
    ("flour", 129),
    ("honey", 655),
    ("lentils", 219),
    ("milk", 109),
    ("olives", 399),
    ("pasta", 149),
    ("pepper", 289),
    ("rice", 235),
    ("salmon", 1299),
    ("salt", 59),
    ("sugar", 139),
    ("tea", 459),
    ("tomatoes", 329),
    ("yogurt", 99),
]
CODES = ["DE", "FR", "IT", "NL", "ES"]

(root / "src" / "lib.rs").write_text(
    "pub mod money;\npub mod parse;\n\n"
    + "".join(
        f"pub mod {m};\n" for m in ["discount", "lines", "refund", "shipping", "tax", "totals"]
    )
)
(root / "src" / "money.rs").write_text(
    """/// Cents in one euro.
pub const CENTS_PER_EURO: i64 = 1000;

pub fn to_cents(euros: f64) -> i64 {
    (euros * CENTS_PER_EURO as f64).round() as i64
}

pub fn percent_of(cents: i64, percent: i64) -> i64 {
    (cents * percent + 50) / 100
}

pub fn is_country(code: &str) -> bool {
    code.len() == 2 && code.bytes().all(|b| b.is_ascii_uppercase())
}
"""
)
(root / "src" / "parse.rs").write_text(
    """/// Split "12 pcs" into a quantity and its unit.
pub fn quantity(text: &str) -> (u32, &str) {
    let (count, unit) = text.split_once(' ').unwrap_or((text, ""));
    (count.parse().unwrap(), unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantity_with_unit() {
        assert_eq!(quantity("12 pcs"), (12, "pcs"));
    }

    #[test]
    fn quantity_with_thousands_separator() {
        assert_eq!(quantity("1,200 pcs"), (1200, "pcs"));
    }

    #[test]
    fn quantity_without_unit() {
        assert_eq!(quantity("7"), (7, ""));
    }
}
"""
)

# Each module: the function under test, then how a test checks it, in cents.
MODULES = {
    "lines": (
        "pub fn line_total(unit_euros: f64, count: i64) -> i64 {\n"
        "    to_cents(unit_euros) * count\n}\n",
        lambda name, cents, i: (
            f"assert_eq!(line_total({cents / 100}, {i + 2}), {cents * (i + 2)});"
        ),
    ),
    "tax": (
        "pub fn with_vat(cents: i64) -> i64 {\n    cents + percent_of(cents, 19)\n}\n",
        lambda name, cents, i: (
            f"assert_eq!(with_vat(to_cents({cents / 100})), {cents + (cents * 19 + 50) // 100});"
        ),
    ),
    "discount": (
        "pub fn after_discount(cents: i64, percent: i64) -> i64 {\n"
        "    cents - percent_of(cents, percent)\n}\n",
        lambda name, cents, i: (
            f"assert_eq!(after_discount(to_cents({cents / 100}), 10), "
            f"{cents - (cents * 10 + 50) // 100});"
        ),
    ),
    "shipping": (
        "pub fn shipping_for(order_cents: i64) -> i64 {\n"
        "    if order_cents >= to_cents(50.0) { 0 } else { to_cents(4.9) }\n}\n",
        lambda name, cents, i: (
            f"assert!(shipping_for({cents * (i + 1)}) == {490 if cents * (i + 1) < 5000 else 0}, "
            f'"shipping for {name} x{i + 1} ({cents * (i + 1)} cents) was {{}}", '
            f"shipping_for({cents * (i + 1)}));"
        ),
    ),
    "refund": (
        "pub fn refund_cents(paid_euros: f64, kept: i64) -> i64 {\n"
        "    to_cents(paid_euros) - kept\n}\n",
        lambda name, cents, i: (
            f"assert_eq!(refund_cents({cents * 3 / 100}, {cents}), {cents * 2}, "
            f'"refund of two {name} of three");'
        ),
    ),
    "totals": (
        "pub fn order_total(prices: &[f64]) -> i64 {\n"
        "    prices.iter().map(|p| to_cents(*p)).sum()\n}\n",
        lambda name, cents, i: f"assert_eq!(order_total(&[{cents / 100}, 1.0]), {cents + 100});",
    ),
}
for module, (function, check) in MODULES.items():
    lines = ["use crate::money::*;", "", function.rstrip(), "", "#[cfg(test)]", "mod tests {"]
    lines += ["    use super::*;", ""]
    for i, (name, cents) in enumerate(PRODUCTS):
        lines += ["    #[test]", f"    fn {module}_of_{name}() {{"]
        lines += [f"        {check(name, cents, i)}"]
        lines += ["    }", ""]
    for code in CODES:
        lines += ["    #[test]", f"    fn {module}_accepts_country_{code.lower()}() {{"]
        lines += [f'        assert!(is_country("{code}"));', "    }", ""]
    lines[-1] = "}"
    (root / "src" / f"{module}.rs").write_text("\n".join(lines) + "\n")

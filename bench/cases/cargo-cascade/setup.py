"""A crate where one wrong field type is reported at every use site.

`Order::price` is declared `String` where every caller treats it as `f64`, so one edit fixes
150 errors spread over ten modules. This is the cascade the notes describe: the same
message at 150 places, each quoting different source.
"""

import sys
from pathlib import Path

MODULES = 10
SITES_PER_MODULE = 15

root = Path(sys.argv[1])
(root / "src").mkdir(parents=True, exist_ok=True)
(root / "Cargo.toml").write_text(
    '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
)
main = [
    "pub struct Order {",
    "    pub id: u32,",
    "    pub price: String,",
    "    pub qty: u32,",
    "}",
    "",
]
for m in range(MODULES):
    main.append(f"mod pricing_{m:02};")
main += ["", "fn main() {", '    let o = Order { id: 1, price: String::from("9.50"), qty: 2 };']
for m in range(MODULES):
    main.append(f'    println!("{{}}", pricing_{m:02}::rule_00(&o));')
main += ["}", ""]
(root / "src" / "main.rs").write_text("\n".join(main))
for m in range(MODULES):
    lines = ["use crate::Order;", ""]
    for s in range(SITES_PER_MODULE):
        factor = 1 + (m * SITES_PER_MODULE + s) % 7
        lines += [
            f"pub fn rule_{s:02}(order: &Order) -> f64 {{",
            f"    let base = order.qty as f64 * {factor}.0;",
            "    base + order.price * 1.2",
            "}",
            "",
        ]
    (root / "src" / f"pricing_{m:02}.rs").write_text("\n".join(lines))

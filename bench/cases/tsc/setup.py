"""A TypeScript project of six modules with nine type errors in four of them."""

import sys
from pathlib import Path

root = Path(sys.argv[1])
src = root / "src"
src.mkdir(parents=True, exist_ok=True)
(root / "tsconfig.json").write_text(
    '{\n  "compilerOptions": {\n    "strict": true,\n    "target": "es2022",\n'
    '    "module": "nodenext",\n    "noEmit": true\n  },\n  "include": ["src"]\n}\n'
)
(src / "user.ts").write_text(
    """export interface User {
  id: number;
  name: string;
  email?: string;
}

export function displayName(user: User): string {
  return user.name.toUpperCase();
}

export function emailDomain(user: User): string {
  return user.email.split("@")[1];
}
"""
)
(src / "cart.ts").write_text(
    """import { User } from "./user.js";

export interface Line {
  sku: string;
  qty: number;
  price: number;
}

export function total(lines: Line[]): number {
  return lines.reduce((sum, line) => sum + line.qty * line.price, "0");
}

export function owner(user: User): number {
  return user.name;
}
"""
)
(src / "format.ts").write_text(
    """export function money(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function percent(value: number): string {
  return money(value.toString());
}
"""
)
(src / "report.ts").write_text(
    """import { Line, total } from "./cart.js";
import { money } from "./format.js";
import { displayName } from "./user.js";

export function summary(lines: Line[]): string {
  const sum: string = total(lines);
  return `${displayName({ id: 1 })}: ${money(sum)}`;
}

export function first(lines: Line[]): Line {
  return lines.find((l) => l.qty > 0);
}

export const unknownField = total([{ sku: "a", qty: 1, price: 2, discount: 3 }]);
"""
)
(src / "ids.ts").write_text("export const ids: number[] = [1, 2, 3];\n")
(src / "main.ts").write_text(
    'import { ids } from "./ids.js";\nimport { money } from "./format.js";\n\n'
    'console.log(ids.map((id) => money(id)).join(", "));\n'
)

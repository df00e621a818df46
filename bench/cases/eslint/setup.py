"""A JavaScript project of thirty modules in three folders, one to three findings in each.

The rules (no-unused-vars, eqeqeq, no-var, prefer-const, no-console) are set inline in
eslint.config.js so the config imports nothing and the pinned eslint from `make case-tools`
can run it from PATH.
"""

import sys
from pathlib import Path

FOLDERS = ["components", "routes", "services"]
PER_FOLDER = 10

root = Path(sys.argv[1])
(root / "package.json").write_text('{ "name": "storefront", "private": true, "type": "module" }\n')
(root / "eslint.config.js").write_text(
    """export default [
  {
    files: ["src/**/*.js"],
    rules: {
      "no-unused-vars": "error",
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-console": "warn",
    },
  },
];
"""
)
for f, folder in enumerate(FOLDERS):
    d = root / "src" / folder
    d.mkdir(parents=True, exist_ok=True)
    for i in range(PER_FOLDER):
        n = f * PER_FOLDER + i
        lines = [f"export function render{n}(props) {{"]
        if n % 2 == 0:
            lines.append(f"  var title = props.title || 'item {n}';")
        else:
            lines.append(f"  const title = props.title || 'item {n}';")
        if n % 3 == 0:
            lines.append("  let count = props.items.length;")
        else:
            lines.append("  const count = props.items.length;")
        if n % 4 == 1 or not (n % 2 == 0 or n % 3 == 0 or n % 5 == 2):
            lines.append("  const unused = count * 2;")
        if n % 5 == 2:
            lines.append("  if (count == 0) {")
            lines.append("    console.log('empty', title);")
            lines.append("  }")
        lines.append("  return `${title}: ${count}`;")
        lines.append("}")
        (d / f"view{n:02}.js").write_text("\n".join(lines) + "\n")

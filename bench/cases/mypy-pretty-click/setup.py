"""Click 8.5.0 with two type faults injected, for mypy with its own `pretty = true` config.

Click's pyproject.toml runs mypy in strict mode with `pretty = true`, so each error is
printed with its message wrapped at 80 columns, the source line and a caret, often with a
note below. Two faults are injected, each a plausible edit:

- `_compat.term_len` is made to return `int | None` for empty text, so every arithmetic
  use of it in three modules fails, mostly with a few messages repeated across files
  (`Unsupported operand types for - ("int" and "None")` in all three), each with its
  own note, and wrapped at different words because the paths differ in length.
- `Group.resolve_command` is annotated to return `tuple[str, Command, list[str]]`, which
  its body and a subclass in tests/typing contradict: long messages that wrap over three
  lines.

Input: github.com/pallets/click, tag 8.5.0 (commit 8b19813f2bfca99f1018a587a8cf54fc959f2e5d).
The repository is not part of this tree, and this script does not download it:
re-recording needs a clone at /tmp/lens-src/click.git, made with
`git clone --bare https://github.com/pallets/click /tmp/lens-src/click.git`. The fixture
recorded from it is what the tests read.
"""

import subprocess
import sys
from pathlib import Path

SOURCE = Path("/tmp/lens-src/click.git")
COMMIT = "8b19813f2bfca99f1018a587a8cf54fc959f2e5d"
FAULTS = [
    (
        "src/click/_compat.py",
        "def term_len(x: str) -> int:\n    return len(strip_ansi(x))\n",
        "def term_len(x: str) -> int | None:\n"
        "    if not x:\n"
        "        return None\n"
        "    return len(strip_ansi(x))\n",
    ),
    (
        "src/click/core.py",
        "    ) -> tuple[str | None, Command | None, list[str]]:\n"
        "        cmd_name = make_str(args[0])",
        "    ) -> tuple[str, Command, list[str]]:\n        cmd_name = make_str(args[0])",
    ),
]

root = Path(sys.argv[1])
if not SOURCE.is_dir():
    sys.exit(f"{SOURCE} is missing; see this script's docstring for how to make it")
subprocess.run(["git", "clone", "-q", "--no-checkout", str(SOURCE), str(root)], check=True)
subprocess.run(["git", "checkout", "-q", "--detach", COMMIT], cwd=root, check=True)
for name, old, new in FAULTS:
    path = root / name
    text = path.read_text()
    if text.count(old) != 1:
        sys.exit(f"{name}: the text to change is not there exactly once")
    path.write_text(text.replace(old, new))

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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.sources import SOURCES, check_out, inject

SOURCE = SOURCES / "click.git"
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
check_out(SOURCE, COMMIT, root)
inject(root, FAULTS)

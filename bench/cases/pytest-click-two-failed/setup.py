"""Click 8.5.0's own test suite, run from a checkout instead of an installed click.

A common way to run a project's tests: put its source on pytest's path rather than
installing it. Click's suite then passes except for two tests that start a fresh
interpreter, which cannot import click: one fails on a JSONDecodeError of the child's
empty output, the other on an assertion whose E lines quote the child's traceback
(ModuleNotFoundError). pytest's tally says 2 failed, while the E lines and tracebacks
name several more errors. tests/test_deprecations.py is left out on the command line: it
asks importlib.metadata for click's version, which only an installed click has.

The only change to click is `pythonpath = ["src"]` in its pytest settings.

Input: github.com/pallets/click, tag 8.5.0 (commit 8b19813f2bfca99f1018a587a8cf54fc959f2e5d).
The repository is not part of this tree, and this script does not download it:
re-recording needs a clone at /tmp/lens-src/click.git, made with
`git clone --bare https://github.com/pallets/click /tmp/lens-src/click.git`. The fixture
recorded from it is what the tests read.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.sources import SOURCES, check_out

SOURCE = SOURCES / "click.git"
COMMIT = "8b19813f2bfca99f1018a587a8cf54fc959f2e5d"

root = Path(sys.argv[1])
check_out(SOURCE, COMMIT, root)
config = root / "pyproject.toml"
old = 'testpaths = ["tests"]\n'
text = config.read_text()
if text.count(old) != 1:
    sys.exit("pyproject.toml: the pytest settings are not where they were")
config.write_text(text.replace(old, old + 'pythonpath = ["src"]\n'))

"""python-tabulate at one commit, with the column padding changed from 2 to 3.

Every test of its command line compares the table the CLI printed with the one it expects
through one helper, `assert_equal` in test/common.py, whose `assert expected == result`
fails with a bare `AssertionError`: each failure shows the same two lines, and what tells
them apart is the `expected = ...` and `result = ...` arguments pytest prints over the
helper's source. `test_multiline_width` fails in the same helper with `6` against `7`.

Input: a bare clone of github.com/astanin/python-tabulate at
/tmp/lens-src/python-tabulate.git (`git clone --bare
https://github.com/astanin/python-tabulate /tmp/lens-src/python-tabulate.git`), commit
268615a ("Merge pull request #422 from DimitriPapadopoulos/B").
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.sources import SOURCES, check_out, inject

root = Path(sys.argv[1])
check_out(SOURCES / "python-tabulate.git", "268615a5c27dc40e5c22454c07b44d5c50410da0", root)
inject(root, [("tabulate/__init__.py", "MIN_PADDING = 2", "MIN_PADDING = 3")])

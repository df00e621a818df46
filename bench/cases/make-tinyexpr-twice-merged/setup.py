"""The tree of make-tinyexpr-in-function, for a build that compiles tinyexpr.c twice.

The smoke test programs `smoke` and `smoke_pr` each compile tinyexpr.c themselves (the
second with two -D options), so under `2>&1` the same warnings come twice between make's
command lines, the smoke test's tally after each; then example2.c fails on its misspelt
member. The input is made by the other case's script.
"""

import runpy
from pathlib import Path

runpy.run_path(
    str(Path(__file__).resolve().parents[1] / "make-tinyexpr-in-function" / "setup.py"),
    run_name="__main__",
)

"""tinyexpr built by its own Makefile with gcc's conversion warnings on, and one fault.

tinyexpr is one C file of an expression parser with small example programs. Built with
`-Wextra -Wconversion -Wsign-conversion -Wcast-qual` it draws 43 warnings of six kinds,
each under gcc's `tinyexpr.c: In function 'f':` line for the function it is in,
and `-Warray-bounds` reports under `In function 'new_expr', inlined from ...` chains.
One plausible edit is injected in example2.c: the result is read from a misspelt member
(`n->vaule`), an error under `example2.c: In function 'main':`. `make -k` goes on past
it, so the failed target's `Error 1` comes before the other programs build and make's
closing `Target ... not remade because of errors.`

Input: github.com/codeplea/tinyexpr at commit 9907207
(COMMIT below). The repository is not part of this tree: re-recording needs
a bare clone at /tmp/lens-src/tinyexpr.git (`git clone --bare
https://github.com/codeplea/tinyexpr /tmp/lens-src/tinyexpr.git`).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.sources import SOURCES, check_out, inject

COMMIT = "9907207e5def0fabdb60c443517b0d9e9d521393"
FAULTS = [
    (
        "example2.c",
        "const double r = te_eval(n);",
        "const double r = n->vaule;",
    ),
]

root = Path(sys.argv[1])
check_out(SOURCES / "tinyexpr.git", COMMIT, root)
inject(root, FAULTS)

"""A clone of ripgrep's public repository, checked out at a fixed commit.

The wrapped git log cases read this real history: commits by several authors, some with
one-line messages and some with bodies of several paragraphs, which is what `git log` prints
on real work rather than on a generated repository.

Input: github.com/BurntSushi/ripgrep, commit 3fce3b5bb0236da2df6d99672afb8a719642eca7
(`ignore-0.4.33`). The repository is not part of this tree, and this script does not
download it: re-recording needs a clone at /tmp/lens-src/ripgrep.git, made with
`git clone --bare https://github.com/BurntSushi/ripgrep /tmp/lens-src/ripgrep.git`.
The fixtures recorded from it are what the tests read.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.sources import SOURCES, check_out

SOURCE = SOURCES / "ripgrep.git"
COMMIT = "3fce3b5bb0236da2df6d99672afb8a719642eca7"

root = Path(sys.argv[1])
check_out(SOURCE, COMMIT, root)

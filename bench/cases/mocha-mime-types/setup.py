"""mime-types 3.0.2 with two injected faults, for mocha's spec reporter.

mime-types is a small CommonJS library tested by one mocha file of 47 tests. Two faults
are injected, each a plausible edit:

- `charset()` lower-cases the charset it reads from mime-db (`'utf-8'` where the tests
  expect `'UTF-8'`): assertion failures with both values, in two describe blocks.
- `extname` is taken from `require('path').extName`, which does not exist: every call of
  `lookup()` throws `TypeError: extname is not a function`, a flood of one cause.

Input: github.com/jshttp/mime-types at commit 3a1187ee21388efe46b916d4991589d595bcb26c,
with mocha 10.8.2 and mime-db 1.54.0 installed from npm. The repository is not part of
this tree: re-recording needs a bare clone in /tmp/lens-src (`git clone --bare
https://github.com/jshttp/mime-types /tmp/lens-src/mime-types.git`) and npm's registry.
The fixture recorded from it is what the tests read.
"""

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.sources import SOURCES, check_out, inject

COMMIT = "3a1187ee21388efe46b916d4991589d595bcb26c"
FAULTS = [
    ("index.js", "    return mime.charset\n", "    return mime.charset.toLowerCase()\n"),
    ("index.js", "require('path').extname", "require('path').extName"),
]

root = Path(sys.argv[1])
check_out(SOURCES / "mime-types.git", COMMIT, root)
# Only what the test run needs, not the linters of package.json's devDependencies.
(root / "package.json").unlink()
subprocess.run(
    [
        "npm",
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--no-save",
        "mocha@10.8.2",
        "mime-db@1.54.0",
    ],
    cwd=root,
    check=True,
    stdout=subprocess.DEVNULL,
)
inject(root, FAULTS)

"""simplejson 3.19.3's own unittest suite, run from its unpacked sdist as released.

The passing counterpart of `unittest-simplejson-faults`: `python3 -m unittest discover -v`
in the sdist's root runs the `simplejson.tests` package on the pure-Python code, 144 tests
of which eight are skipped because the C speedups are not built, and ends `OK
(skipped=8)`. One test prints its docstring's first line in place of its name.

Input: the simplejson 3.19.3 sdist from PyPI. This script does not download it:
re-recording needs `/tmp/lens-src/simplejson-3.19.3.tar.gz`, made with
`pip download --no-deps --no-binary :all: simplejson==3.19.3 -d /tmp/lens-src`. The
fixture recorded from it is what the tests read.
"""

import shutil
import sys
import tarfile
from pathlib import Path

SDIST = Path("/tmp/lens-src/simplejson-3.19.3.tar.gz")

root = Path(sys.argv[1])
if not SDIST.is_file():
    sys.exit(f"{SDIST} is missing; see this script's docstring for how to make it")
with tarfile.open(SDIST) as archive:
    archive.extractall(root, filter="data")
top = root / "simplejson-3.19.3"
for entry in top.iterdir():
    shutil.move(str(entry), str(root / entry.name))
top.rmdir()

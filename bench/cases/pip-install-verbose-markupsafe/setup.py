"""`pip install -v` of a package built from its sdist: a build's log inside pip's own.

pip -v indents everything its build backend prints by two spaces, so a line's place in
the log is told by how far it is indented past that: `  Collecting setuptools` owns the
`    Using cached ...` under it, not the setuptools build log that follows it at the same
depth. setuptools prints one deprecation warning, a boxed message of thirteen lines, three
times (for the build requirements, the metadata and the wheel).

Input: the MarkupSafe 2.1.5 sdist from PyPI, which this script does not download:
re-recording needs `/tmp/lens-src/MarkupSafe-2.1.5.tar.gz`, made with `pip download
--no-deps --no-binary :all: markupsafe==2.1.5 -d /tmp/lens-src`. The build's own
requirements (setuptools, wheel) come from the package index, so the case is a fixture
only. The fixture recorded from it is what the tests read.
"""

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

SDIST = Path("/tmp/lens-src/MarkupSafe-2.1.5.tar.gz")
SHA256 = "d283d37a890ba4c1ae73ffadf8046435c76e7bc2247bbb63c00bd1a709c6544b"

root = Path(sys.argv[1])
if not SDIST.is_file():
    sys.exit(f"{SDIST} is missing; see this script's docstring for how to make it")
if hashlib.sha256(SDIST.read_bytes()).hexdigest() != SHA256:
    sys.exit(f"{SDIST} is not the sdist this fixture was recorded from")
shutil.copy(SDIST, root / SDIST.name)
subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)

"""simplejson 3.19.3's own unittest suite, run from its unpacked sdist with two faults put in.

`python3 -m unittest discover -v` in the sdist's root finds the `simplejson.tests` package
and runs it on the pure-Python decoder and encoder (the C speedups are not built, so eight
tests are skipped). Two faults a refactoring could leave behind:

- decoder.py loses `unichr` from its compat import, so every test that decodes a
  surrogate pair ends in the same `NameError` inside `py_scanstring` (several alike
  ERROR sections);
- encoder.py's list encoder forgets to step its indent level back before the closing
  bracket, so indented output is wrong and the indent tests FAIL with string diffs, one
  of them a test whose docstring unittest prints in place of its name.

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


def inject(path: str, old: str, new: str) -> None:
    file = root / path
    text = file.read_text()
    if text.count(old) != 1:
        sys.exit(f"{path}: the code to change is not where it was")
    file.write_text(text.replace(old, new))


inject("simplejson/decoder.py", "from .compat import PY3, unichr\n", "from .compat import PY3\n")
# The closing bracket's indent, one level too deep.
CLOSE = "                yield '\\n' + (_indent * _current_indent_level)\n            yield ']'"
inject("simplejson/encoder.py", "                _current_indent_level -= 1\n" + CLOSE, CLOSE)

"""A real Python test file that is not valid UTF-8: CPython 3.11.7's test_source_encoding.py.

It tests how Python reads source in other encodings, and two of its 342 lines hold string
literals in a legacy 8-bit encoding (bytes 0xC9-0xF0 that do not form UTF-8). The rest is
plain text, so printing it gives a stream with a few invalid bytes among ordinary lines,
which is text that must be filtered line by line, not a binary file.

Input: Lib/test/test_source_encoding.py from CPython 3.11.7, read from the test package of
the interpreter that runs this script. Re-recording needs a CPython 3.11.7 with its test
package installed (a python.org build or pyenv's); the copy is checked against the file's
SHA-256, and the fixture recorded from it is what the tests read.
"""

import hashlib
import sys
import sysconfig
from pathlib import Path

SHA256 = "2db4fd29915e8086dbba7ef5c5b2c666a79b3fb75d127d0893c6f3adcb76e5a1"

root = Path(sys.argv[1])
source = Path(sysconfig.get_paths()["stdlib"]) / "test" / "test_source_encoding.py"
if not source.is_file():
    sys.exit(f"{source} is missing; this case needs CPython 3.11.7 with its test package")
data = source.read_bytes()
if hashlib.sha256(data).hexdigest() != SHA256:
    sys.exit(f"{source} is not the file this fixture was recorded from (CPython 3.11.7)")
(root / "test_source_encoding.py").write_bytes(data)

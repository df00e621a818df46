"""A real tree of about 1,200 files in 100 directories: packages of CPython's standard
library, copied from the Python that runs this script (3.11.7 when recorded), without
their `__pycache__` folders.

`ls -laR` of it prints each directory's header (`lib/email/mime:`) over its entries, so a
cut that starts or ends inside a directory's entries shows them under another
directory's header; `find` of it prints one path per line.

Input: the standard library of the Python running the setup; the fixtures recorded from
it are what the tests read. Another Python gives another listing.
"""

import shutil
import sys
import sysconfig
from pathlib import Path

PACKAGES = [
    "email",
    "json",
    "xml",
    "importlib",
    "concurrent",
    "unittest",
    "asyncio",
    "urllib",
    "http",
    "logging",
    "multiprocessing",
    "sqlite3",
    "tomllib",
    "wsgiref",
    "dbm",
    "html",
    "curses",
    "ctypes",
    "zoneinfo",
    "re",
    "venv",
    "idlelib",
    "lib2to3",
    "tkinter",
    "distutils",
    "encodings",
    "test/test_email",
    "test/test_importlib",
    "test/test_asyncio",
]

root = Path(sys.argv[1])
stdlib = Path(sysconfig.get_paths()["stdlib"])
for package in PACKAGES:
    if (stdlib / package).is_dir():
        shutil.copytree(
            stdlib / package,
            root / "lib" / package,
            ignore=shutil.ignore_patterns("__pycache__"),
        )

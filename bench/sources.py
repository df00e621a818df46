"""What the setup scripts of cases built on a real project share: a checkout of the
project at one commit, from a bare clone under /tmp/lens-src, and the faults put in it.

A setup script runs as `python3 setup.py DIR`; it reaches this module with
`sys.path.insert(0, str(Path(__file__).resolve().parents[3]))`, then
`from bench.sources import check_out, inject`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# Where the sources are kept; no setup script downloads them (see tests/fixtures/README.md).
SOURCES = Path("/tmp/lens-src")


def check_out(repo: Path, commit: str, root: Path) -> None:
    """Check `commit` of the bare clone `repo` out into `root`, or exit saying what is missing."""
    if not repo.is_dir():
        sys.exit(f"{repo} is missing; see this script's docstring for how to make it")
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(repo), str(root)], check=True)
    subprocess.run(["git", "checkout", "-q", "--detach", commit], cwd=root, check=True)


def inject(root: Path, faults: list[tuple[str, str, str]]) -> None:
    """Replace, in each file named, its one copy of `old` with `new`.

    A text that is not there exactly once means the checkout is not the one the case was
    written for: the script exits rather than record a run without its fault.
    """
    for name, old, new in faults:
        path = root / name
        text = path.read_text()
        if text.count(old) != 1:
            sys.exit(f"{name}: the text to change is not there exactly once")
        path.write_text(text.replace(old, new))

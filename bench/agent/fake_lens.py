#!/usr/bin/env python3
"""A test double for the lens binary, used only by bench/tests: it implements just enough
of the contract (the marker line, the store, `lens show <handle> --level 3`) to exercise
the scripted agent's recovery paths deterministically, whatever state the real pipeline
is in. It is not lens and its views are not lens's views.

Views, per stream, when the stream has more than 40 lines:
    level 2   the first 10 and the last 10 lines, one marker for the middle
    level 1   the first 20 lines, one marker for the rest
    level 0   the last line, one marker for everything before it
Shorter streams are shown whole. The handle is the store's entry count plus one, in hex.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def view(text: str, level: int, handle: str) -> str:
    lines = text.splitlines(keepends=True)
    n = len(lines)
    if n <= 40:
        return text

    def marker(first: int, last: int) -> str:
        return f"[lens: {last - first + 1} lines elided, {first}-{last}, {handle}]\n"

    if level == 1:
        return "".join(lines[:20]) + marker(21, n)
    if level == 0:
        return marker(1, n - 1) + lines[-1]
    return "".join(lines[:10]) + marker(11, n - 10) + "".join(lines[-10:])


def main(argv: list[str]) -> int:
    store = Path(os.environ["LENS_STORE"])
    if argv and argv[0] == "show":
        stream = "stderr" if "--stderr" in argv else "stdout"
        sys.stdout.write((store / argv[1] / stream).read_text())
        return 0
    level = 2
    if argv[:1] == ["--level"]:
        level, argv = int(argv[1]), argv[2:]
    done = subprocess.run(argv, capture_output=True, text=True)
    store.mkdir(parents=True, exist_ok=True)
    handle = f"{len(list(store.iterdir())) + 1:08x}"
    (store / handle).mkdir()
    (store / handle / "stdout").write_text(done.stdout)
    (store / handle / "stderr").write_text(done.stderr)
    sys.stdout.write(view(done.stdout, level, handle))
    sys.stdout.flush()
    sys.stderr.write(view(done.stderr, level, handle))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

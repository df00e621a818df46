"""A netstring codec and 5,250 round-trip tests, one of which prints a frame holding NULs.

The decoder drops everything after the first NUL of a payload (a C-string habit), so the
one test whose payload carries NUL separators fails. Like every test it prints the frame
it built, and pytest shows that captured output under the failure, so the run's output
quotes the frame raw: two NUL bytes among about 5,300 lines of text, which is what a test
of a binary protocol prints. `pytest -v` gives one line per test.
"""

import sys
from pathlib import Path

root = Path(sys.argv[1])
(root / "tests").mkdir(parents=True, exist_ok=True)
(root / "netstring.py").write_text(
    '''"""Netstrings: `<length>:<payload>,` framing for byte strings."""


def encode(payload: bytes) -> bytes:
    return str(len(payload)).encode() + b":" + payload + b","


def decode(frame: bytes) -> bytes:
    length, _, rest = frame.partition(b":")
    body = rest[: int(length)]
    if rest[int(length) : int(length) + 1] != b",":
        raise ValueError(f"frame of length {int(length)} is not terminated by a comma")
    # Payloads written by the C client are NUL-padded.
    return body.partition(b"\\0")[0]
'''
)
(root / "tests" / "test_netstring.py").write_text(
    """import pytest

from netstring import decode, encode

WORDS = [b"alpha", b"bravo", b"charlie", b"delta", b"echo", b"foxtrot", b"golf", b"hotel"]


def payload(n: int) -> bytes:
    if n == 3187:
        return b"user=ada\\0role=admin\\0"
    return b" ".join(WORDS[(n + i) % len(WORDS)] for i in range(n % 5 + 1))


@pytest.mark.parametrize("n", range(5250), ids=lambda n: f"frame-{n:04}")
def test_round_trip(n):
    frame = encode(payload(n))
    print("frame:", frame.decode("latin-1"))
    assert decode(frame) == payload(n)
"""
)
(root / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')

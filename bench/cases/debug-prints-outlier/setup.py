"""A small Python script that prints one debug line per chunk it processes, 600 in all.

This is the print a developer adds to find a slow chunk: every line has the same shape and
differs only in the chunk number and its latency, and exactly one chunk (417) is slow.
Latencies come from a seeded generator, so every run prints the same lines.
"""

import sys
from pathlib import Path

root = Path(sys.argv[1])
(root / "chunks.py").write_text(
    '''"""Process a file in chunks and print how long each chunk took."""

import random

SLOW_CHUNK = 417


def latency_ms(rng, chunk):
    if chunk == SLOW_CHUNK:
        return 1873
    return rng.randint(3, 19)


def main():
    rng = random.Random(8)
    for chunk in range(600):
        print(f"DEBUG chunk={chunk} latency_ms={latency_ms(rng, chunk)}")


if __name__ == "__main__":
    main()
'''
)

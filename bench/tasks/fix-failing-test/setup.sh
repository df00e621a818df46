#!/bin/sh
# Build the fix-failing-test working directory from nothing: a small Python package with
# 240 passing tests and one failing, because checksum() reduces modulo 255 instead of 256.
# Deterministic and offline; stdlib only.
set -eu
dir=$1
mkdir -p "$dir/inventory" "$dir/tests"
: > "$dir/inventory/__init__.py"
: > "$dir/tests/__init__.py"
cat > "$dir/inventory/checksum.py" <<'PY'
"""One-byte checksums for inventory records."""


def checksum(data: bytes) -> int:
    """The sum of the bytes, reduced to one byte."""
    return sum(data) % 255
PY
cat > "$dir/inventory/stock.py" <<'PY'
"""Stock levels."""


def restock(level: int, amount: int) -> int:
    return level + amount


def sell(level: int, amount: int) -> int:
    if amount > level:
        raise ValueError("not enough stock")
    return level - amount
PY
awk -v dir="$dir" 'BEGIN {
    for (m = 1; m <= 6; m++) {
        file = sprintf("%s/tests/test_stock_%d.py", dir, m)
        print "import unittest\n\nfrom inventory.stock import restock, sell\n\n" > file
        printf "class StockCase%d(unittest.TestCase):\n", m > file
        for (i = 1; i <= 40; i++) {
            n = m * 100 + i
            printf "    def test_restock_then_sell_%03d(self):\n", n > file
            printf "        self.assertEqual(sell(restock(%d, %d), %d), %d)\n\n", n, i, i, n > file
        }
        close(file)
    }
}'
cat > "$dir/tests/test_checksum.py" <<'PY'
import unittest

from inventory.checksum import checksum


class ChecksumCase(unittest.TestCase):
    def test_checksum_wraps_at_one_byte(self):
        self.assertEqual(checksum(bytes([200, 100])), 44)
PY

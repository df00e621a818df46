"""Export 4,800 records, one progress line each, then print the checksum the caller needs.

The last line is the answer: a view that keeps the head, or that summarises progress, loses
it. The checksum is derived from a fixed seed so it can only be read, not guessed.
"""

import hashlib

TOTAL = 4800
REGIONS = ["eu-west", "eu-north", "us-east", "us-west", "ap-south", "ap-east"]

digest = hashlib.sha256(b"last-line-trap")
print("export: 4800 records to out/records.jsonl")
for n in range(1, TOTAL + 1):
    region = REGIONS[n % len(REGIONS)]
    size = (n * 131) % 4000 + 120
    digest.update(f"{n}:{region}:{size}".encode())
    print(f"wrote record {n:04} region={region} bytes={size}")
print(f"export checksum: sha256:{digest.hexdigest()}")

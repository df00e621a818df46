"""Apply 4,800 schema migrations, one log line each; the one that matters is in the middle.

Migration 2,400 fails and is rolled back, and the run goes on and exits 0, so neither the
exit status nor the last lines say anything went wrong. The failure line carries a token
derived from a fixed seed, so a reader can only quote it by having seen that line.
"""

import hashlib

TOTAL = 4800
CRITICAL = 2400
TABLES = ["users", "orders", "ledger", "invoices", "sessions", "audit", "carts", "prices"]
ACTIONS = ["add_column", "create_index", "backfill", "rename_column", "drop_default"]


def token(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()[:12]


print("migrate: 4800 pending migrations")
for n in range(1, TOTAL + 1):
    table = TABLES[n % len(TABLES)]
    action = ACTIONS[(n * 7) % len(ACTIONS)]
    name = f"{n:04}_{action}_{table}"
    if n == CRITICAL:
        print(
            f"ERROR {name}: constraint {table}_amount_positive violated by 17 rows; "
            f"rolled back, continuing (incident {token('mid-stream-trap')})"
        )
    else:
        print(f"applied {name} in {(n * 37) % 900 + 3} ms")
print("migrate: done")

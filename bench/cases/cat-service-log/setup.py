"""A service's log file, written by Python's logging module, for `cat` to print.

The service is a small order worker: it logs one INFO record per order it handles and a
DEBUG record per cache lookup, with the timestamps logging gives each record (taken from a
seeded clock, so every run writes the same file). About two thirds of the way through,
one order's payload is not JSON; the worker logs the exception with `logger.exception`,
so the file holds the ERROR record and the real traceback Python printed for it. The case
is `cat service.log`: a printed file that is a log, where the one error is what matters.
"""

import subprocess
import sys
from pathlib import Path

root = Path(sys.argv[1])
(root / "service.py").write_text(
    r'''"""An order worker that logs what it does to service.log."""

import json
import logging
import random

rng = random.Random(2026)
clock = {"t": 1_773_480_000.0}


class SeededClock(logging.Filter):
    def filter(self, record):
        clock["t"] += rng.uniform(0.005, 0.4)
        record.created = clock["t"]
        record.msecs = (clock["t"] % 1) * 1000
        return True


log = logging.getLogger("orders.worker")
handler = logging.FileHandler("service.log", mode="w")
handler.setFormatter(
    logging.Formatter("%(asctime)s %(levelname)-5s %(name)s: %(message)s")
)
handler.addFilter(SeededClock())
log.addHandler(handler)
log.setLevel(logging.DEBUG)
logging.Formatter.converter = __import__("time").gmtime


def handle(order_id, payload):
    order = json.loads(payload)
    return sum(item["qty"] * item["price"] for item in order["items"])


def main():
    log.info("worker started, queue=orders-eu-1 concurrency=4")
    for n in range(1, 1801):
        order_id = f"ord_{rng.getrandbits(40):010x}"
        if rng.random() < 0.6:
            log.debug("cache %s for %s", rng.choice(["hit", "miss"]), order_id)
        items = [{"qty": rng.randint(1, 5), "price": rng.randint(100, 9000)}
                 for _ in range(rng.randint(1, 4))]
        payload = json.dumps({"items": items})
        if n == 1207:
            payload = payload[:-9]
        try:
            total = handle(order_id, payload)
        except Exception:
            log.exception("order %s failed; moved to orders-eu-1-dead", order_id)
            continue
        log.info("order %s handled: %d items, total=%d in %dms", order_id,
                 len(items), total, rng.randint(3, 60))
    log.info("worker stopped: 1800 orders, 1 failed")


main()
'''
)
subprocess.run([sys.executable, "service.py"], cwd=root, check=True)

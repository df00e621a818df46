#!/usr/bin/env bash
# The passing pytest tree plus one test module that imports a module that does not exist, so
# collection fails with an ImportError before any test runs.
set -euo pipefail
PASS_ONLY=1 python3 "$(dirname "$0")/../pytest-fail/setup.py" "$1"
cat > "$1/tests/test_refunds.py" <<'PY'
from shop.refunds import refund_policy


def test_refund_window():
    assert refund_policy("standard").days == 30
PY

#!/usr/bin/env bash
# The pytest-fail tree with every test passing.
PASS_ONLY=1 exec python3 "$(dirname "$0")/../pytest-fail/setup.py" "$1"

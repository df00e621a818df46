#!/usr/bin/env bash
# The same fifty-file package as the ruff case.
exec python3 "$(dirname "$0")/../ruff/setup.py" "$1"

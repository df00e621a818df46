#!/usr/bin/env bash
# The tree the ls-laR-python-stdlib case copies.
exec python3 "$(dirname "$0")/../ls-laR-python-stdlib/setup.py" "$1"

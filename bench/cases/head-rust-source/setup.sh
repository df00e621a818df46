#!/usr/bin/env bash
# The source file the cat-rust-source case copies.
exec python3 "$(dirname "$0")/../cat-rust-source/setup.py" "$1"

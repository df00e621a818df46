#!/usr/bin/env bash
# A fresh virtualenv for `pip install` to fill. Needs the Python package index.
set -euo pipefail
python3 -m venv "$1/venv"

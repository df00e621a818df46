#!/usr/bin/env bash
# Copy the export script into the case directory.
set -euo pipefail
cp "$(dirname "$0")/export.py" "$1/export.py"

#!/usr/bin/env bash
# Copy the migration script into the case directory.
set -euo pipefail
cp "$(dirname "$0")/migrate.py" "$1/migrate.py"

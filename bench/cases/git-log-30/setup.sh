#!/usr/bin/env bash
# The ripgrep clone the git-log-wrapped-sh case builds.
exec python3 "$(dirname "$0")/../git-log-wrapped-sh/setup.py" "$1"

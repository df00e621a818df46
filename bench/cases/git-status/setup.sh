#!/usr/bin/env bash
# The repository the git-log case builds.
exec python3 "$(dirname "$0")/../git-log/setup.py" "$1"

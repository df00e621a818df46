#!/bin/sh
# Success: the whole suite passes and tests/ is exactly as set up (the fix went into the
# code, not the test). Runs on a copy of the agent's directory.
set -eu
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
sh "$here/setup.sh" "$fresh"
for f in "$fresh"/tests/*.py; do
    cmp -s "$f" "$dir/tests/$(basename "$f")" || { echo "tests/$(basename "$f") was changed"; exit 1; }
done
cd "$dir"
python3 -m unittest discover -s tests -t . -q 2>/dev/null || { echo "tests fail"; exit 1; }

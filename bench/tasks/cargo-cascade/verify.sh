#!/bin/sh
# Success: the crate builds, runs, and prints the total the unmodified use sites imply
# (so deleting or rewriting them does not pass). Runs on a copy of the agent's directory.
set -eu
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
sh "$here/setup.sh" "$fresh"
cmp -s "$fresh/src/uses.rs" "$dir/src/uses.rs" || { echo "src/uses.rs was changed"; exit 1; }
cd "$dir"
unset CARGO_TARGET_DIR
out=$(cargo run --quiet 2>/dev/null) || { echo "cargo run failed"; exit 1; }
# sum over i = 1..150 of (2*i + 1) + (4*i + 3)
[ "$out" = "68550" ] || { echo "wrong total: $out"; exit 1; }

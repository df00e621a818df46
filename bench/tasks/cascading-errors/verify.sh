#!/bin/sh
# Success: ledger.rs compiles, and total() still sums all 120 entries (1 + ... + 120),
# so deleting call sites does not pass. Runs on a copy of the agent's directory.
set -eu
dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{ cat "$dir/ledger.rs"; printf '\nfn main() {\n    println!("{}", total());\n}\n'; } > "$work/check.rs"
rustc --edition 2021 -A dead_code -o "$work/check" "$work/check.rs" 2>/dev/null \
    || { echo "ledger.rs does not compile"; exit 1; }
out=$("$work/check")
[ "$out" = "7260" ] || { echo "wrong total: $out"; exit 1; }

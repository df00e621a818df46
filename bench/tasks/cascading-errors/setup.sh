#!/bin/sh
# Build the cascading-errors working directory from nothing: one Rust file whose helper
# is defined as `parse_line` and called as `parse_entry` at 120 sites, so rustc reports
# one cause 120 times. Deterministic and offline.
set -eu
dir=$1
mkdir -p "$dir"
awk 'BEGIN {
    print "//! A tiny ledger: every entry is a number written as text."
    print ""
    print "fn parse_line(s: &str) -> i64 {"
    print "    s.trim().parse::<i64>().unwrap_or(0)"
    print "}"
    print ""
    for (i = 1; i <= 120; i++) {
        printf "pub fn entry_%03d() -> i64 {\n    parse_entry(\" %d \")\n}\n\n", i, i
    }
    print "pub fn total() -> i64 {"
    printf "    0"
    for (i = 1; i <= 120; i++) printf "\n        + entry_%03d()", i
    print ""
    print "}"
}' > "$dir/ledger.rs"

#!/usr/bin/env bash
# The crate the cargo-test-one-cause case builds, with RUST_BACKTRACE=1 set through cargo's
# own [env] table, so the command stays a bare `cargo test` and the test binaries print a
# backtrace, standard-library frames included, under every panic.
set -euo pipefail
python3 "$(dirname "$0")/../cargo-test-one-cause/setup.py" "$1"
mkdir -p "$1/.cargo"
printf '[env]\nRUST_BACKTRACE = "1"\n' > "$1/.cargo/config.toml"

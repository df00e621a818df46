#!/usr/bin/env bash
# The crate of the cargo-build case.
exec bash "$(dirname "$0")/../cargo-build/setup.sh" "$1"

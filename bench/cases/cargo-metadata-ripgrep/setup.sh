#!/usr/bin/env bash
# The ripgrep clone the git-log-wrapped-sh case builds (see that script for where it comes
# from). `cargo metadata` reads every dependency's manifest, so re-recording also needs
# ripgrep's locked dependencies in cargo's registry cache: run `cargo fetch` once in a
# clone of ripgrep at the same commit. The command then reads them without the network.
exec python3 "$(dirname "$0")/../git-log-wrapped-sh/setup.py" "$1"

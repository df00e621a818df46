#!/bin/sh
# Build the paired-session working directory from nothing: the cascading-errors,
# fix-failing-test and mid-stream-trap directories laid side by side (their files do not
# overlap), so one session runs a compiler, a test suite and a long script in turn.
set -eu
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
for task in cascading-errors fix-failing-test mid-stream-trap; do
    sh "$here/../$task/setup.sh" "$dir"
done

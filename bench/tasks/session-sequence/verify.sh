#!/bin/sh
# Success: all three parts verify. Runs on a copy of the agent's directory.
set -eu
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
for task in cascading-errors fix-failing-test mid-stream-trap; do
    sh "$here/../$task/verify.sh" "$dir" || { echo "$task part not done"; exit 1; }
done

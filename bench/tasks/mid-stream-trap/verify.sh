#!/bin/sh
# Success: ANSWER holds the token migrate.sh derives from this directory's blob (see
# ../_shared/verify-token.sh). Runs on a copy of the agent's directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../_shared/verify-token.sh" "$here" "$1"

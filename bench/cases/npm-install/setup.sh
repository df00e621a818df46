#!/usr/bin/env bash
# A package.json pinning a few small packages, one of them deprecated, and no lock file, so
# `npm install` resolves, fetches and reports. Needs the npm registry.
set -euo pipefail
cat > "$1/package.json" <<'JSON'
{
  "name": "install-demo",
  "private": true,
  "dependencies": {
    "left-pad": "1.3.0",
    "is-odd": "3.0.1",
    "ms": "2.1.3",
    "chalk": "4.1.2"
  }
}
JSON

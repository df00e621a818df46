#!/usr/bin/env bash
# A project directory of about twenty entries with fixed modes and times, so `ls -la` prints
# the same listing on every run apart from the directory sizes the file system chooses.
set -euo pipefail
cd "$1"
mkdir -p project && cd project
mkdir -p src tests docs scripts .github
for f in Cargo.toml Cargo.lock README.md LICENSE-MIT LICENSE-APACHE CHANGELOG.md rustfmt.toml \
         clippy.toml deny.toml .gitignore .editorconfig Makefile build.rs; do
  printf '%s\n' "$f" > "$f"
done
head -c 48213 /dev/zero | tr '\0' 'x' > Cargo.lock
printf '#!/bin/sh\necho release\n' > scripts/release.sh
chmod 0755 scripts/release.sh scripts
ln -s README.md README
chmod 0600 deny.toml
find . -exec touch -h -d '2026-03-14 09:26:53' {} +
touch -d '2026-03-14 09:26:53' "$1"

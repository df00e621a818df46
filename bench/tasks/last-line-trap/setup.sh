#!/bin/sh
# Build the last-line-trap working directory from nothing: migrate.sh prints 5,001 lines
# and, as the last one, a confirmation code it derives at print time from .migrate/blob.
# Only the blob is random (fresh per cell); everything else is deterministic.
set -eu
dir=$1
mkdir -p "$dir/.migrate"
head -c 4096 /dev/urandom > "$dir/.migrate/blob"
cat > "$dir/migrate.sh" <<'SH'
#!/bin/sh
# Copy every chunk of the legacy table into the new shards.
set -eu
token=$(sha256sum .migrate/blob | cut -c1-16)
awk -v token="$token" 'BEGIN {
    for (i = 1; i <= 5000; i++) printf "chunk %04d/5000: %d rows copied\n", i, (i * 37) % 500 + 100
    print "migration complete, confirmation code: " token
}'
SH

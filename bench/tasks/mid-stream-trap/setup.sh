#!/bin/sh
# Build the mid-stream-trap working directory from nothing: migrate.sh prints 4,803 lines
# and, at line 2,400, a resume token it derives at print time from .migrate/blob. Only the
# blob is random (fresh per cell, so the token cannot be remembered or found by searching
# the tree); everything else is deterministic.
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
    print "starting migration of 4800 chunks"
    for (i = 1; i <= 4800; i++) {
        if (i == 2399) print "resume token: " token
        printf "chunk %04d/4800: %d rows copied\n", i, (i * 37) % 500 + 100
    }
    print "migration finished: 4800 chunks"
}'
SH

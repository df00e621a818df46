#!/usr/bin/env bash
# Two C files compiled together with -Wall: errors in one, warnings in both.
set -euo pipefail
cd "$1"
cat > util.h <<'C'
int parse_count(const char *text);
C
cat > util.c <<'C'
#include <stdlib.h>
#include "util.h"

int parse_count(const char *text) {
    int unused;
    return atoi(text);
}
C
cat > main.c <<'C'
#include <stdio.h>
#include "util.h"

struct config {
    int verbose;
    const char *name;
};

int main(int argc, char **argv) {
    struct config cfg = { 0, "demo" };
    int n = parse_count(argv[1], 10);
    printf("%s %d\n", cfg.title, n);
    undeclared_total += n;
    return 0
}
C

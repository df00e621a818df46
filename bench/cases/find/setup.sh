#!/usr/bin/env bash
# A small tree of Python, Markdown and data files for find to walk.
set -euo pipefail
cd "$1"
mkdir -p app/api app/core app/jobs docs data tests
for m in api/routes api/schemas core/config core/db core/cache jobs/worker jobs/queue; do
  printf '"""%s"""\n' "$m" > "app/$m.py"
done
touch app/__init__.py app/api/__init__.py app/core/__init__.py app/jobs/__init__.py
for t in routes db worker; do printf 'def test_%s():\n    pass\n' "$t" > "tests/test_$t.py"; done
printf '# docs\n' > docs/index.md
printf '# api\n' > docs/api.md
printf 'a,b\n1,2\n' > data/sample.csv

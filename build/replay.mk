# `make replay-check DIR=...` replays recorded outputs through the built lens and checks every
# view against the raw bytes (tools/replay_check.py). DIR is a fixtures directory (default
# tests/fixtures) or a manifest.toml; the report goes to out/replay-check.txt as well.

DIR ?= tests/fixtures

.PHONY: replay-check

replay-check: build
	set -o pipefail; $(PYTHON) tools/replay_check.py --lens $(LENS) $(DIR) | tee $(OUT)/replay-check.txt

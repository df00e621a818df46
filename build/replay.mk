# `make replay-check DIR=...` replays recorded outputs through the built lens and checks every
# view against the raw bytes (tools/replay_check.py). DIR is a fixtures directory (default
# tests/fixtures) or a manifest.toml; the report goes to out/replay-check.txt and every view
# to out/replay/<case>/, so the views can be read as well as checked.

DIR ?= tests/fixtures

.PHONY: replay-check

replay-check: build
	rm -rf $(OUT)/replay
	set -o pipefail; $(PYTHON) tools/replay_check.py --lens $(LENS) --save $(OUT)/replay $(DIR) \
	  | tee $(OUT)/replay-check.txt

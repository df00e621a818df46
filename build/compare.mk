# Bench cases, fixtures and the compression and overhead benchmarks.
#
#   make case-tools  the pinned tools the cases run: ruff, mypy, pytest in out/bench-tools/venv,
#                    eslint, typescript, jest in out/bench-tools/node, and Debian's golang-go
#   make fixtures    re-record tests/fixtures/ from bench/cases (needs case-tools)
#   make tokf        the other filter, pinned, built into out/tools/bin/tokf
#   make compare     bench/compare.py: every case raw, under lens levels 2/1/0, tokf and rtk
#   make overhead    bench/overhead.py: lens against the bare command, time and memory

BENCH_TOOLS := $(OUT)/bench-tools
BENCH_VENV_STAMP := $(BENCH_TOOLS)/venv/.installed
BENCH_NODE_STAMP := $(BENCH_TOOLS)/node/.installed
TOKF_VERSION := 0.2.54
GO_DEB_VERSION := 2:1.19~1
TOKF := $(OUT)/tools/bin/tokf

.PHONY: case-tools fixtures tokf compare overhead

case-tools: $(BENCH_VENV_STAMP) $(BENCH_NODE_STAMP)
	@command -v go >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go=$(GO_DEB_VERSION); }

$(BENCH_VENV_STAMP): bench/cases/requirements.txt
	$(PYTHON) -m venv $(BENCH_TOOLS)/venv
	$(BENCH_TOOLS)/venv/bin/pip install --quiet --disable-pip-version-check -r $<
	touch $@

$(BENCH_NODE_STAMP): bench/cases/node/package.json bench/cases/node/package-lock.json
	mkdir -p $(BENCH_TOOLS)/node
	cp bench/cases/node/package.json bench/cases/node/package-lock.json $(BENCH_TOOLS)/node/
	cd $(BENCH_TOOLS)/node && npm ci --no-audit --no-fund --loglevel=error
	touch $@

fixtures: case-tools
	$(PYTHON) tools/record_fixtures.py

tokf: $(TOKF)
$(TOKF):
	env -u CARGO_TARGET_DIR cargo install --locked --root $(OUT)/tools tokf@$(TOKF_VERSION)

compare: build case-tools
	$(PYTHON) bench/compare.py

overhead: build
	$(PYTHON) bench/overhead.py

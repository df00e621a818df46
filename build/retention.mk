# Agent-in-the-loop benchmarks. `make retention` prints the retention sweep's plan and
# spends nothing; `make retention ARGS=--run` preflights the agent and runs it. ARGS is
# passed through untouched (e.g. ARGS="--run --driver scripted --repeats 1").
# `make session` does the same for the paired-session benchmark.

ARGS ?=

.PHONY: retention session

retention:
	$(PYTHON) bench/runner.py $(ARGS)

session:
	$(PYTHON) bench/session.py $(ARGS)

# Python tooling under tools/ and bench/: a virtualenv in out/venv holding the pinned
# versions from tools/requirements.txt, so a fresh clone runs the same ruff as CI.

PYTHON ?= python3
VENV := $(OUT)/venv
VENV_STAMP := $(VENV)/.installed
PY := $(VENV)/bin/python
RUFF := $(VENV)/bin/ruff
PY_DIRS := $(wildcard tools bench)

.PHONY: setup test-py check-py fmt-py

setup: $(VENV_STAMP)
$(VENV_STAMP): tools/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r tools/requirements.txt
	touch $@

test: test-py
test-py: $(VENV_STAMP)
	@set -e; for d in $(PY_DIRS); do \
	  if find $$d -name 'test_*.py' | grep -q .; then \
	    echo "python unittest: $$d"; $(PY) -m unittest discover -s $$d -t . -p 'test_*.py'; \
	  fi; \
	done

check: check-py
check-py: $(VENV_STAMP)
	$(RUFF) check $(PY_DIRS)
	$(RUFF) format --check $(PY_DIRS)

fmt: fmt-py
fmt-py: $(VENV_STAMP)
	$(RUFF) format $(PY_DIRS)
	$(RUFF) check --fix $(PY_DIRS)

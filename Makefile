# Lens: the front door. Everything a target produces lands in out/.
#
#   make build      out/<profile>/<arch>/lens
#   make install    make build, then copy it to $(PREFIX)/bin/lens (PREFIX=/usr/local)
#   make test       unit, integration and property tests, plus the Python tooling's tests
#   make check      rustfmt --check, clippy -D warnings, ruff check and ruff format --check
#   make fmt        rustfmt and ruff format, in place
#   make replay-check DIR=...  replay recorded outputs through lens, check every view
#
# Helper makefiles live in build/*.mk and are included here in name order.

.DEFAULT_GOAL := build
.DELETE_ON_ERROR:
SHELL := /bin/bash

OUT := $(CURDIR)/out
# Pinned so a sandboxed cargo cannot build somewhere the rest of the tree does not look.
export CARGO_TARGET_DIR := $(OUT)/.cargo

include $(sort $(wildcard build/*.mk))

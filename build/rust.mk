# Rust: build, test, lint. The binary is copied to out/<profile>/<arch>/lens so scripts
# find it at a path that does not depend on cargo's layout.

PROFILE ?= release
ARCH := $(shell uname -m)
LENS := $(OUT)/$(PROFILE)/$(ARCH)/lens
CARGO_PROFILE_FLAG := $(if $(filter release,$(PROFILE)),--release,)
CARGO_PROFILE_DIR := $(if $(filter release,$(PROFILE)),release,debug)

.PHONY: build test test-rust check check-rust fmt fmt-rust

build:
	cargo build --locked $(CARGO_PROFILE_FLAG) --bin lens
	install -D -m 0755 $(CARGO_TARGET_DIR)/$(CARGO_PROFILE_DIR)/lens $(LENS)
	@echo "built $(LENS)"

test: test-rust
test-rust:
	cargo test --locked --all-targets

check: check-rust
check-rust:
	cargo fmt --check
	cargo clippy --locked --all-targets -- -D warnings

fmt: fmt-rust
fmt-rust:
	cargo fmt

# Developer tasks. `make ci` runs exactly what CI runs (.ci/run: a fresh virtualenv, the Rust
# tests, the wheel, the Python tests). The others expect an active virtualenv with maturin.

PYTHON ?= python
.DEFAULT_GOAL := help

.PHONY: help dev test test-rust test-python stubtest bench lint docs docs-serve ci clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

dev:  ## build the extension (release) into the active virtualenv, editable
	maturin develop --release

test: test-rust test-python  ## cargo test + pytest

test-rust:  ## the engine's tests, without Python
	cargo test --release

test-python: dev  ## the Python tests against a fresh build
	$(PYTHON) -m pytest -q

stubtest: dev  ## check python/maquis/_core.pyi against the extension (needs mypy)
	$(PYTHON) -m mypy.stubtest maquis._core

bench:  ## engine throughput (criterion), then single/vector env throughput
	cargo bench --bench engine
	$(PYTHON) -m maquis bench

docs:  ## the documentation site into site/, strict (needs the docs extra: pip install ".[docs]")
	$(PYTHON) -m mkdocs build --strict

docs-serve:  ## the documentation site on http://127.0.0.1:8000, rebuilt on change
	$(PYTHON) -m mkdocs serve

lint:  ## clippy on the engine and on the bindings
	cargo clippy --release --all-targets -- -D warnings
	cargo clippy --release --lib --features python -- -D warnings

ci:  ## what CI runs, from this checkout
	bash .ci/run

clean:
	cargo clean
	rm -rf dist

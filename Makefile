# The two commands of the README: `make site` and `make test`. Each creates .venv when missing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: site test bench clean install install-test

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "error: no python3.11 or python3 on PATH; install Python 3.11"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

site: $(VENV)/.installed
	$(BIN)/rulekb build

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

# `make bench`: the whole Comprehensive Rules (../shared/data, 2026-01-16) imported beside the seed content
# into build/bench/fullcr, then import, validate, check and build timed (README, "Rules releases and import").
bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf site build .pytest_cache

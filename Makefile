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

# The QA reports go to reports/ (generated, never committed); `rulekb check` exits 1 when
# error findings remain, which is a result to read, not a failed build.
site: $(VENV)/.installed
	$(BIN)/rulekb build
	@$(BIN)/rulekb check --reports reports; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@echo "QA reports: reports/qa.html (open in a browser), reports/qa.json, reports/qa.xml (JUnit), reports/qa.txt"
	@echo "translation status per language: site/<lang>/status.html; the site: site/index.html"

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

# `make bench`: the whole Comprehensive Rules (../shared/data, 2026-01-16) imported beside the seed content
# into build/bench/fullcr, then import, validate, check and build timed; then, when rules/ holds the complete
# data (all releases), validate, check and build of the project itself (README, "Rules releases and import").
bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf site build reports .pytest_cache

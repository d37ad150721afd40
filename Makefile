# Monte Carlo balance analysis for board games.  `make` lists the targets.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
GAMES  ?= 1e6

.DEFAULT_GOAL := help

## help: list the targets
help:
	@grep -E '^## ' $(MAKEFILE_LIST) | sed -e 's/^## /  make /' -e 's/: /\t/'

## install: create the virtual environment (if missing) and install the package with its test tools
install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	@touch $(STAMP)

## run: install, then simulate a million Puluc games and write the HTML report (GAMES=1e6)
run: install
	$(VENV)/bin/sim puluc --games $(GAMES)

## test: install, then run the whole test suite
test: install
	$(PY) -m pytest -q

## bench: install, then measure speed (writes bench/results/*.jsonl and prints a table)
bench: install
	$(PY) bench/run.py

## clean: remove caches and generated reports (keeps the virtual environment)
clean:
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
	rm -rf reports/*/ .pytest_cache

.PHONY: help install run test bench clean

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

## test: install (and Debian's chromium for the report test, where missing), then lint and run the whole test suite (slow fault tests included)
test: install chromium lint
	$(PY) -m pytest -q

## lint: ruff over the whole repository (pyflakes and pycodestyle; settings in pyproject.toml)
lint: install
	$(VENV)/bin/ruff check .

## test-fast: the suite without the slow fault-injection, property and packaging tests (-m 'not slow')
test-fast: install
	$(PY) -m pytest -q -m "not slow"

# the browser test opens reports in headless Chromium; installed where missing and possible
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the report browser test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
	      || echo "could not install chromium: the browser test will be skipped"; \
	  else echo "chromium missing and not root: the browser test will be skipped"; fi; }

## bench: install, then measure speed (writes bench/results/*.jsonl and prints a table)
bench: install
	$(PY) bench/run.py

## clean: remove caches and generated reports (keeps the virtual environment)
clean:
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
	rm -rf reports/*/ .pytest_cache

.PHONY: help install run test test-fast lint bench clean chromium

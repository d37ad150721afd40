# Monte Carlo balance analysis for board games.  `make` lists the targets.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
GAMES  ?= 1e6
# pytest-xdist workers for make test / test-fast (auto: one per CPU)
TEST_JOBS ?= auto
# Where Python may not write its bytecode caches (PYTHONDONTWRITEBYTECODE=1, as on this project's
# machines and in many container images), a module without a current .pyc is compiled from source
# by every process that imports it: make install byte-compiles the packages and the project's
# sources, and the tests run in the environment as it is, as a user's commands do
# (tests/test_bytecode.py)

.DEFAULT_GOAL := help

## help: list the targets
help:
	@grep -E '^## ' $(MAKEFILE_LIST) | sed -e 's/^## /  make /' -e 's/: /\t/'

## install: create the virtual environment (if missing), install the package with its test tools, byte-compile the project's sources
install: $(STAMP)
	@$(PY) -m compileall -qq -j 0 sim analysis

# pip installs with --no-compile and compileall then writes the bytecode of every installed module
# on every core (pip compiles on one: 14 of the install's 28 s); without it, where bytecode may
# not be written, `sim puluc --games 1e6 --jobs 2` took 9.5-10.9 s instead of 4.7-5.6 s, 4.55 s
# of it compiling about 1,400 modules.  A module that does not compile (none today) is left to
# Python, as pip leaves it.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --no-compile -e ".[test]"
	$(PY) -m compileall -qq -j 0 "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" || true
	@touch $(STAMP)

## run: install, then simulate a million Puluc games and write the HTML report (GAMES=1e6)
run: install
	$(VENV)/bin/sim puluc --games $(GAMES)

## test: install (and Debian's chromium for the report test, where missing), lint, compile every kernel once, then run the whole test suite (slow fault tests included) in parallel
# chromium's download and unpacking (about 100 s on a machine without it) waits on the network and
# the disk, the install and the warmup on the network and the CPU: chromium starts with the
# install (lint and warmup wait for the install, not for chromium)
test:
	@$(MAKE) --no-print-directory -j3 chromium lint warmup
	$(PY) -m pytest -q -n $(TEST_JOBS) --dist worksteal

## warmup: compile every game's kernels once, the games spread over the cores (seconds when numba's cache is warm)
warmup: install
	$(PY) tests/warmup.py

## lint: ruff over the whole repository (pyflakes and pycodestyle; settings in pyproject.toml)
lint: install
	$(VENV)/bin/ruff check .

## test-fast: the quick loop: every rules, invariant, reference, stream, statistics and fixture test, without the integration modules, strength regressions and fault injection (-m 'not slow'; tests/conftest.py says which)
test-fast: install warmup
	$(PY) -m pytest -q -n $(TEST_JOBS) --dist worksteal -m "not slow"

## test-numba-min: the cache, streams and Puluc tests under the lowest supported numba (0.60.0, numpy 2.0) in .venv-numba-min
test-numba-min:
	@test -x .venv-numba-min/bin/python || $(PYTHON) -m venv .venv-numba-min
	.venv-numba-min/bin/python -m pip install --quiet "numba==0.60.0" "numpy<2.1" -e ".[test]"
	NUMBA_CACHE_DIR=$$(mktemp -d) .venv-numba-min/bin/python -m pytest -q tests/test_jit_cache.py tests/test_rng.py \
	  tests/test_puluc_rules.py tests/test_puluc_invariants.py tests/test_puluc_replay.py tests/test_engine.py

# the browser test opens reports in headless Chromium; installed where missing and possible,
# without Debian's recommended packages (avahi, udev, samba's libraries, printer tools, perl's
# web modules): 25 packages instead of 115, 11.6 s of CPU to unpack and set up instead of 17.3,
# measured from apt's cache; the browser test passes the same without them
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the report browser test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null \
	      || echo "could not install chromium: the browser test will be skipped"; \
	  else echo "chromium missing and not root: the browser test will be skipped"; fi; }

## coverage: the rules' tests with numba's JIT off (NUMBA_DISABLE_JIT=1: the kernels run as Python, so coverage sees them), then the coverage of sim/games (about 5 min; 58% on 2026-12-04)
coverage: install
	NUMBA_DISABLE_JIT=1 $(PY) -m coverage run --source=sim/games --data-file=.coverage-nojit -m pytest -q -n 0 -p no:cacheprovider \
	  tests/test_puluc_rules.py tests/test_maya_rules.py tests/test_batam_rules.py tests/test_balam_rules.py
	$(PY) -m coverage report --data-file=.coverage-nojit --skip-covered --sort=cover

## fixtures: regenerate the checked-in row hashes and playthroughs (after a version bump: tests/test_behaviour_fixtures.py)
fixtures: install
	$(PY) bench/rowhash.py --fixtures

## bench: install, then measure speed (bench/run.py) and the cost and paired strength of strong play (bench/strong.py); writes bench/results/*.jsonl and prints tables
bench: install
	$(PY) bench/run.py
	$(PY) bench/strong.py

## clean: remove caches and generated reports (keeps the virtual environment)
clean:
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
	rm -rf reports/*/ .pytest_cache

.PHONY: help install run test test-fast test-numba-min warmup lint coverage fixtures bench clean chromium

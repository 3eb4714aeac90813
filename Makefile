# Two commands a newcomer needs: `make demo` and `make test`. Both create .venv if missing.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench soak fuzz mutate lock wheel clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tablectl demo

# The suite runs on TEST_WORKERS processes (pytest-xdist): most of its time is spent waiting
# on subprocesses, pseudo-terminals, brokers and browsers, not on the CPU. Two workers on a
# 2-core machine (four took 4 min 43 s, but once starved a power-cut test of time for its
# fourth coup).
TEST_WORKERS ?= 2
test: $(STAMP) lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy firmware_bridge drivers controller sim_hardware
	$(BIN)/lint-imports

# Every benchmark in bench/ in one table (bench/run_all.py; results in bench/results/).
bench: $(STAMP)
	$(BIN)/python bench/run_all.py $(BENCH_ARGS)

# A simulated table through injected faults for SOAK_SECONDS (tools/soak.py --help for
# the rates); prints the figures and fails if anything was lost, doubled or unbalanced.
# Blackjack unless told: `make soak SOAK_ARGS="--game baccarat"` (or poker; --shoe rfid).
SOAK_SECONDS ?= 600
SOAK_ARGS ?=
soak: $(STAMP)
	$(BIN)/python tools/soak.py --seconds $(SOAK_SECONDS) $(SOAK_ARGS)

# The fuzz targets (tests/fuzz) for SECONDS each (stateful game machines twice that);
# `make fuzz SECONDS=600 FUZZ_REPORT=fuzz.jsonl` for the long local run with figures.
SECONDS ?= 30
fuzz: $(STAMP)
	FUZZ_SECONDS=$(SECONDS) FUZZ_REPORT=$(FUZZ_REPORT) $(BIN)/python -m pytest tests/fuzz \
		-p no:cacheprovider -q --timeout=0 -ra

# Mutation testing of the money, rules and wire code (docs/testing.md): mutmut and the
# import-time route, in a copy of the tree under /tmp; fails under 90% killed on a module.
mutate: $(STAMP)
	$(BIN)/python tools/mutate.py $(MUTATE_ARGS)

# requirements/table.txt: the exact versions a table runs (the dependencies and the pi
# extra), with the hash of every file of each version on the index, so the same lock
# installs on x86_64 and on a Pi's aarch64 (README, "From the wheel"). Pins already there
# are kept; `make lock LOCK_ARGS=--upgrade` moves every pin to the newest the ranges allow.
LOCK_ARGS ?=
lock: $(STAMP)
	CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/pip-compile --quiet --generate-hashes \
		--extra pi --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links \
		--output-file requirements/table.txt $(LOCK_ARGS) pyproject.toml

# The product: dist/tablectl-<version>-py3-none-any.whl (README, "From the wheel").
wheel: $(STAMP)
	rm -rf build dist
	$(BIN)/python -m pip wheel --no-deps --wheel-dir dist .

clean:
	rm -rf $(VENV) build dist *.egg-info

# The built wheel on an emulated Raspberry Pi OS (Debian bookworm arm64 under qemu-user,
# tools/pi_check.sh; needs root): the lock and the wheel installed as docs/install.md does,
# the installed demo for 30 s, the firmware_bridge and drivers tests. The root file system
# is cached in /var/cache/tablectl-pi-root: about 3 min the first time.
.PHONY: pi-check
pi-check: $(STAMP)
	bash tools/pi_check.sh

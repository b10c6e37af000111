# Fresh machine: `make run` or `make test`; both create .venv when it is missing.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean playthroughs calibrate tec-reports browser serve

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/cthulhu-sim main

lint: $(STAMP)
	$(BIN)/ruff check .

# the workbench's browser test drives Debian's Chromium (playwright comes with '.[dev]'):
# installed here when missing and this runs as root with apt; otherwise the test says why it
# skips (and fails instead under CTHULHU_SIM_REQUIRE_BROWSER=1, as .ci/run sets)
browser:
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing Debian's chromium for the workbench's browser test"; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null \
	  || { apt-get update -q >/dev/null && \
	       DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; } \
	  || echo "note: chromium could not be installed; the browser test will not run"; \
	else echo "note: no chromium, and no root to install it: the browser test will skip"; fi

test: $(STAMP) lint browser
	$(BIN)/python -m pytest -q

serve: $(STAMP)  # the balance workbench on http://127.0.0.1:8765/
	$(BIN)/cthulhu-sim serve

playthroughs: $(STAMP)  # regenerate tests/playthroughs/ after an intended change of play
	$(BIN)/python -m tests.playthroughs

calibrate: $(STAMP)  # the Tiny Epic Cthulhu calibration sweep and its order check (simcore/tec/NOTES.md)
	$(BIN)/cthulhu-sim sweep experiments/specs/tec-calibration.toml --out reports/tec-calibration --overwrite -q
	$(BIN)/cthulhu-sim order reports/tec-calibration --order goo=nyarlathotep,yog-sothoth,yig,cthulhu --order difficulty=normal,hard,madness

tec-reports: $(STAMP)  # the Tiny Epic Cthulhu balance-tool reports of the README's worked example
	$(BIN)/cthulhu-sim sensitivity tec --goo cthulhu --difficulty hard --games 20000 --seed 1 --out reports/tec-sensitivity-cthulhu-hard --overwrite -q
	$(BIN)/cthulhu-sim tune tec --goo cthulhu --difficulty hard --target 0.5 --vary setup.bag_eldritch --seed 1 --out reports/tec-tune-eldritch-cthulhu-hard --overwrite -q
	$(BIN)/cthulhu-sim tune tec --goo cthulhu --difficulty hard --target 0.5 --vary great_old_one.cthulhu.energy_2 --seed 1 --out reports/tec-tune-energy-cthulhu-hard --overwrite -q
	$(BIN)/cthulhu-sim tune tec --goo cthulhu --target normal=0.3,hard=0.2,madness=0.1 --vary setup.extra_eldritch --seed 1 --out reports/tec-tune-ladder-cthulhu --overwrite -q

bench: $(STAMP)
	$(BIN)/cthulhu-sim bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

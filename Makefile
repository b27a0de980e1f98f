# duetbox — the two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PYGAME_HIDE_SUPPORT_PROMPT := 1

.PHONY: run test lint typecheck soak docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/duetbox run --hardware emulator

test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock \
		$(BIN)/python -m pytest -n 2 -p no:cacheprovider
	$(BIN)/ruff check engine hardware device partner tools tests
	$(BIN)/mypy --strict engine

lint: $(STAMP)
	$(BIN)/ruff check engine hardware device partner tools tests

typecheck: $(STAMP)
	$(BIN)/mypy --strict engine

soak: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy DUETBOX_SOAK=1 \
		$(BIN)/python -m pytest -p no:cacheprovider --durations=10 tests/system

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/duetbox bench

docs: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m device.docs

clean:
	rm -rf $(VENV) build *.egg-info

# Two commands do everything on a fresh machine: `make run` and `make test`.
# `make run` installs Felt's runtime dependencies only (`pip install -e .`); `make test` adds the
# test and lint tools and PostgreSQL's driver (`.[dev,postgres]`). Each install has its own stamp,
# so running the bot never pulls in pytest, and testing after running installs only the rest.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
RUNTIME_STAMP := $(VENV)/.runtime-stamp
DEV_STAMP := $(VENV)/.dev-stamp

.PHONY: install install-dev run test test-all lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUNTIME_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUNTIME_STAMP)

$(DEV_STAMP): pyproject.toml $(RUNTIME_STAMP)
	$(BIN)/python -m pip install --quiet -e ".[dev,postgres]"
	touch $(DEV_STAMP)

install: $(RUNTIME_STAMP)

install-dev: $(DEV_STAMP)

run: $(RUNTIME_STAMP)
	$(BIN)/felt run

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/pytest -n 2 -m "not slow"

test-all: lint typecheck
	$(BIN)/pytest -n 2

bench: $(DEV_STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

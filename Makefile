# Cardroom: every command the project has. `make help` lists them.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Touched after a successful install; older than pyproject.toml means reinstall.
INSTALLED := $(VENV)/.cardroom-installed

HOST ?= 127.0.0.1
PORT ?= 8000
# Half again as many test processes as cores: much of the suite waits on
# servers, browsers and sockets it starts, so two processes left a core idle
# (a whole run on two cores: 8:33 with 2, 7:12 with 3, 7:20 with 4). Work
# stealing keeps the last long tests from queueing behind one process.
PYTEST_WORKERS ?= $(shell python3 -c "import os; print(max(2, len(os.sched_getaffinity(0)) * 3 // 2))")
PYTEST_ARGS ?=

LOCAL := DJANGO_SETTINGS_MODULE=config.settings.local
MANAGE := $(BIN)/python manage.py

# `make up` uses this machine's services unless the environment or the .env
# file (CARDROOM_ENV_FILE, as the settings read it) names others.
ENV_FILE := $(or $(CARDROOM_ENV_FILE),.env)
dotenv = $(shell sed -n 's/^[[:space:]]*$(1)[[:space:]]*=[[:space:]]*//p' $(ENV_FILE) 2>/dev/null \
	| tail -n 1 | sed -e 's/^["'"'"']//' -e 's/["'"'"'][[:space:]]*$$//')
# The default names no user: libpq connects as its default (PGUSER, else the
# operating system's user name), the role PostgreSQL usually has for you.
UP_DATABASE_URL := $(or $(DATABASE_URL),$(call dotenv,DATABASE_URL),postgres://127.0.0.1:5432/cardroom)
UP_REDIS_URL := $(or $(REDIS_URL),$(call dotenv,REDIS_URL),redis://127.0.0.1:6379/0)
FULL_STACK := $(LOCAL) DATABASE_URL=$(UP_DATABASE_URL) REDIS_URL=$(UP_REDIS_URL)
# The machine's own services are started only when the stack uses them.
# (A host follows the "@" of a user, or the "//" when no user is named.)
UP_HOSTS := @127.0.0.1 @localhost //127.0.0.1 //localhost
UP_LOCAL := $(strip $(foreach url,$(UP_DATABASE_URL) $(UP_REDIS_URL),\
	$(foreach host,$(UP_HOSTS),$(findstring $(host),$(url)))))

# mypy: the Django code as configured in pyproject.toml, plus rules/ (strict
# there) once that package exists.
MYPY_TARGETS := config accounts games stats tournaments web manage.py \
	$(if $(wildcard rules/__init__.py),rules)

.PHONY: help venv run up test lint fmt bench services browsers screenshots clean

help: ## List the commands
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN {FS = ":.*## "} {printf "  make %-12s %s\n", $$1, $$2}'

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

venv: $(INSTALLED) ## Create .venv and install the project (only when pyproject.toml changed)

# A HOST other than loopback is refused while DEBUG is on (scripts/run.sh).
run: venv ## Serve on http://127.0.0.1:8000/ (HOST=, PORT=; other hosts need DEBUG=false)
	$(LOCAL) BIN=$(BIN) HOST=$(HOST) PORT=$(PORT) scripts/run.sh

up: venv ## Full stack: PostgreSQL + Redis (this machine's unless told otherwise), uvicorn, Celery worker and beat
	$(if $(UP_LOCAL),DATABASE_URL=$(UP_DATABASE_URL) scripts/services-up.sh)
	@$(FULL_STACK) BIN=$(BIN) HOST=$(HOST) scripts/run.sh --check-only
	$(FULL_STACK) BIN=$(BIN) scripts/prepare.sh
	@echo "Cardroom (full stack): http://$(HOST):$(PORT)/"
	$(FULL_STACK) BIN=$(BIN) HOST=$(HOST) PORT=$(PORT) scripts/up.sh

# The suite starts hundreds of Python processes (commands, servers, workers);
# with PYTHONDONTWRITEBYTECODE set (as on the CI machines) none of them could
# keep the project's bytecode, and each compiled every module again: about
# 0.3 s of CPU a process. Compiled once here, they all read it.
test: venv services browsers lint ## Lint, then the whole suite (browser tests included) on real PostgreSQL and Redis
	$(BIN)/python -m compileall -q -j 0 accounts bench config games rules stats tournaments web tests manage.py > /dev/null
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n $(PYTEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

lint: venv ## ruff, ruff format --check, mypy, makemigrations --check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(MYPY_TARGETS)
	$(LOCAL) $(MANAGE) makemigrations --check --dry-run

fmt: venv ## Format the code and apply safe lint fixes
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: venv ## Run every benchmark script in bench/ (never part of make test)
	@# A benchmark is a script with a main guard; bench/ws_relay.py is an app ws_load.py serves.
	@shopt -s nullglob; scripts=($$(grep -l '^if __name__ == "__main__":' bench/*.py || true)); \
	if [ $${#scripts[@]} -eq 0 ]; then echo "No benchmarks in bench/ yet."; fi; \
	for script in "$${scripts[@]}"; do \
		echo "== $$script"; PYTHONPATH=. $(BIN)/python "$$script"; \
	done

services: ## Start PostgreSQL and Redis unless they are running
	scripts/services-up.sh

browsers: ## Install Debian's Chromium for browser tests, if missing
	scripts/browsers-up.sh

screenshots: venv services browsers ## Run the browser tests and refresh docs/screenshots/
	E2E_SCREENSHOTS_TO_DOCS=1 $(BIN)/pytest tests/e2e/test_bot_matches.py -p no:xdist -q

clean: ## Remove local state and caches (not the venv)
	rm -rf var staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +

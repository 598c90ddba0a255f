# Two commands on a fresh machine with Python 3.11: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1:8000
# pytest-xdist's workers: one per core (`make test WORKERS=0` runs in this process alone).
WORKERS ?= auto
# More of pytest's arguments (`make test ARGS="-m database"`: .ci/run's PostgreSQL pass).
ARGS ?=

.PHONY: install run check test lint mutation

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the dependencies change.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

# The background tasks' worker (ratings, the report, notifications) runs beside the web server
# and stops with it.
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py tasks_worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver $(HOST)

# The fast tier, while working: everything but the browser and the slow tests, with the
# small hypothesis profile (tests/profiles.py).
check: install
	$(BIN)/python -m pytest -n $(WORKERS) -m "not browser and not slow" $(ARGS)

# Everything (CI=true: the full-size random tests).
test: install
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest -n $(WORKERS) $(ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Mutation testing of the engine: scoring/'s mutants against tests/scoring/'s fast tests
# (pyproject.toml, tool.mutmut), then the score against its goal (98% of the reachable
# mutants killed). mutmut keeps its results in mutants/ and runs again only the mutants of
# changed functions and those it has not run; it keeps a survivor's verdict though a test
# written since would kill it, so the survivors (and suspicious ones) run again by name.
MUTATION_CHILDREN ?= 2
MUTMUT := $(BIN)/mutmut
mutation: install
	$(MUTMUT) run --max-children $(MUTATION_CHILDREN)
	again="$$($(MUTMUT) results | sed -n 's/^ *\(.*\): \(survived\|suspicious\)$$/\1/p')"; \
	if [ -n "$$again" ]; then $(MUTMUT) run --max-children $(MUTATION_CHILDREN) $$again; fi
	$(MUTMUT) export-cicd-stats
	$(BIN)/python scripts/mutation_score.py mutants/mutmut-cicd-stats.json 98

# Everything a developer or CI needs; `make run` and `make test` work on a fresh machine with Python 3.13.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PORT   ?= 3000
ENV    ?= dev
# AWS SAM CLI, cfn-lint and zizmor live in their own venv: they pin their own dependencies. It runs without
# the PYTHONPATH above: with the checkout's root on it, its pip would see this project's egg-info (from .venv's
# `pip install -e .`) as installed and report its pins as conflicts with the SAM CLI's.
SAM_VENV  := .venv-sam
SAM_PY    := env -u PYTHONPATH $(SAM_VENV)/bin/python
SAM       := env -u PYTHONPATH $(SAM_VENV)/bin/sam
SAM_STAMP := $(SAM_VENV)/.installed
export SAM_CLI_TELEMETRY := 0
export AWS_DEFAULT_REGION ?= eu-central-1

# The import roots Lambda gives a function: the layer (/opt/python) and the function code.
export PYTHONPATH := layers/shared:functions:.

# The functions' CPU: arm64 deployed; ARCH=x86_64 builds for `sam local` on an x86 laptop (no emulation).
ARCH ?= arm64
LAYER_PLATFORM := $(if $(filter x86_64,$(ARCH)),manylinux2014_x86_64,manylinux2014_aarch64)
# sam local against `make run MONGO_BIND=0.0.0.0`'s database (local/sam-env.json), on its own port: beside
# make run's API (PORT, 3000) and its webhook receiver (LOCAL_WEBHOOK_PORT, 3001), which run at the same time.
SAM_LOCAL_PORT ?= 3002
LOCAL_MONGODB_URI ?= mongodb://127.0.0.1:27018/?directConnection=true
SAM_LOCAL_OPTIONS = --env-vars local/sam-env.json --add-host host.docker.internal:host-gateway \
	--parameter-overrides "Architecture=$(ARCH) AssetsBaseUrl=https://assets.invalid AllowedOrigins=http://localhost:5173" $(SAM_LOCAL_ARGS)

.PHONY: help install ops run test test-mongoeco check unit integration lint format typecheck seed indexes openapi sdk bench invoke sam-install build validate zizmor deploy sam-event sam-invoke sam-api clean

help:
	@echo "make run        serve the whole API on http://127.0.0.1:$(PORT) (local mongod, seeded demo data, WORKERS processes)"
	@echo "make test       lint, type-check and run every test (with the OpenAPI drift check and fuzzing)"
	@echo "make test-mongoeco   a smoke run of a few integration tests on the mongoeco fallback (CI runs it)"
	@echo "make check      sam build (arm64, no container), sam validate --lint and zizmor: what CI runs after make test"
	@echo "make lint       ruff check, ruff format --check, mypy"
	@echo "make seed       load the demo data file through the data set import into the configured database (idempotent)"
	@echo "make indexes    create the MongoDB indexes declared in code"
	@echo "make bench      cold init per function beside the library floor; warm latency and MongoDB commands per sample event"
	@echo "make ops ARGS=\"order show CR-DEMO-000001\"   an operator command (.venv/bin/car-retail-ops --help)"
	@echo "make openapi    regenerate openapi.json from the resolvers (Swagger UI: make run, then /api/docs)"
	@echo "make sdk        generate the TypeScript client from openapi.json (sdk/) and type-check its journey (tsc --strict)"
	@echo "make invoke FN=Auth EVENT=events/auth/login.json   invoke one function with one event"
	@echo "make build | validate | deploy ENV=dev|staging|prod   AWS SAM (installed into $(SAM_VENV))"
	@echo "make sam-invoke FN=Auth EVENT=events/auth/me.json | sam-api   sam local with Docker (README, sam local)"

$(STAMP): layers/shared/requirements.txt requirements-dev.txt requirements-translator.txt pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 13), f"Python 3.13 is required, found {sys.version.split()[0]}: install it (pyenv install 3.13) or set PYTHON=python3.13"'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -r requirements-translator.txt
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	PORT=$(PORT) $(PY) -m local serve

# pytest-xdist workers: one per core (each with its own mongod and databases); PYTEST_WORKERS=0 runs the
# tests in this one process. --dist worksteal hands each worker a contiguous half of the tests (a module's
# fixtures, such as a seeded database or `make run`'s server, are mostly built once) and lets an idle
# worker take tests from a busy one. Not loadscope/loadfile: they run one test per node id, and the
# fuzzing tests' per-operation items share theirs (tests/conftest.py refuses those modes).
PYTEST_WORKERS ?= auto
PYTEST_PARALLEL = -n $(PYTEST_WORKERS) --dist worksteal

test: lint
	$(PY) -m pytest -q -p no:cacheprovider $(PYTEST_PARALLEL)

# Where mongod cannot run (another OS or CPU) the tests and `make run` fall back to mongoeco: keep that path working.
# In one process: a few dozen tests gain less from a second worker than its start and collection cost.
MONGOECO_SMOKE := tests/integration/saved_cars/test_saved_cars.py tests/integration/orders/test_promo_codes.py tests/integration/ops/test_demo_data.py
test-mongoeco: $(STAMP)
	env -u MONGODB_URI LOCAL_MONGO=mongoeco $(PY) -m pytest -q -p no:cacheprovider $(MONGOECO_SMOKE)

unit: $(STAMP)
	$(PY) -m pytest -q tests/unit

integration: $(STAMP)
	$(PY) -m pytest -q $(PYTEST_PARALLEL) tests/integration

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

seed: $(STAMP)
	$(PY) -m local seed

indexes: $(STAMP)
	$(PY) -m ops indexes

# Developer tools (tools/, never installed; `python -m tools --help`), apart from the operator commands above.
openapi: $(STAMP)
	$(PY) -m tools openapi

# Any operator command: make ops ARGS="order show CR-DEMO-000001" (the same as .venv/bin/car-retail-ops ...).
# With nothing set it works on the running `make run`'s database; STAGE and MONGODB_URI(_SECRET_ID) point elsewhere.
ops: $(STAMP)
	$(VENV)/bin/car-retail-ops $(ARGS)

# The TypeScript client: pinned generator and client (sdk/package-lock.json), types generated from
# openapi.json, the journey compiled with tsc --strict. tests/integration/contract/test_generated_client.py runs it.
SDK := sdk
$(SDK)/node_modules/.package-lock.json: $(SDK)/package.json $(SDK)/package-lock.json
	npm ci --prefix $(SDK) --no-audit --no-fund --loglevel=error

sdk: $(SDK)/node_modules/.package-lock.json
	cd $(SDK) && ./node_modules/.bin/openapi-typescript ../openapi.json --output src/schema.d.ts
	cd $(SDK) && ./node_modules/.bin/tsc --strict --project tsconfig.json

bench: $(STAMP)
	$(PY) -m tools bench $(ARGS)

invoke: $(STAMP)
	$(PY) -m local invoke $(FN) -e $(EVENT)

$(SAM_STAMP): requirements-sam.txt
	$(PYTHON) -m venv $(SAM_VENV)
	$(SAM_PY) -m pip install --quiet --upgrade pip
	$(SAM_PY) -m pip install --quiet -r requirements-sam.txt
	@touch $(SAM_STAMP)

sam-install: $(SAM_STAMP)

# No container: sam's pip workflow fetches the arm64 (aarch64) wheels of the layer's dependencies.
# functions/Makefile and layers/shared/Makefile package the code; they compile with the SAM venv's Python 3.13.
build: $(SAM_STAMP)
	LAYER_PLATFORM=$(LAYER_PLATFORM) BUILD_PYTHON=$(CURDIR)/$(SAM_VENV)/bin/python $(SAM) build --parameter-overrides Architecture=$(ARCH)

validate: $(SAM_STAMP)
	$(SAM) validate --lint

# The workflows: pinned actions, least privilege, no injection (zizmor's offline audits).
zizmor: $(SAM_STAMP)
	env -u PYTHONPATH $(SAM_VENV)/bin/zizmor --offline --config .github/zizmor.yml .github/workflows

check: build validate zizmor

deploy: build
	$(SAM) deploy --config-env $(ENV)

# One sample event with fresh tokens of the demo user (make run's database) for sam local.
sam-event: $(STAMP)
	@mkdir -p .aws-sam/events
	MONGODB_URI='$(LOCAL_MONGODB_URI)' $(PY) -m local event $(EVENT) > .aws-sam/events/$(notdir $(EVENT))

# FN=Auth EVENT=events/auth/me.json; no EVENT: an empty event (the scheduled jobs: FN=OutboxPublisher).
sam-invoke: $(SAM_STAMP) $(if $(EVENT),sam-event)
	$(SAM) local invoke $(FN)Function $(if $(EVENT),-e .aws-sam/events/$(notdir $(EVENT)),--no-event) $(SAM_LOCAL_OPTIONS)

sam-api: $(SAM_STAMP)
	$(SAM) local start-api --port $(SAM_LOCAL_PORT) $(SAM_LOCAL_OPTIONS)

clean:
	rm -rf $(VENV) $(SAM_VENV) .aws-sam .pytest_cache .mypy_cache .ruff_cache $(SDK)/node_modules $(SDK)/build $(SDK)/src/schema.d.ts

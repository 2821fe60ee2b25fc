# MindScope: one entry point for setting up, running, testing and checking everything.
#   make demo    VS Code for the web on 127.0.0.1 with MindScope and examples/ (PORT=8080)
#   make test    every test: Python, TypeScript unit, end-to-end in the real workbench
#   make check   ruff, mypy, eslint, prettier, tsc
#   make facts   rebuild the checker's facts table from the installed MindSpore
#   make package dist/mindscope.vsix
#   make generate TS contract types from schemas/, docs/settings.md from package.json
SHELL := /bin/bash
.DEFAULT_GOAL := help
PORT ?= 8080
CODE_SERVER_PREFIX ?= $(HOME)/.cache/mindscope/code-server
export CODE_SERVER_PREFIX
VENV_BIN := .venv/bin
TS_SOURCES := $(shell find extension scripts/workbench tests/e2e tests/unit -name '*.ts' 2>/dev/null)

.PHONY: generate help setup python node code-server browser build demo demo-stop test test-python test-unit test-e2e check facts package clean

help:
	@sed -n '2,7p' Makefile | sed 's/^# *//'

setup: python node code-server browser build

python:
	@scripts/setup-python.sh

node:
	@scripts/setup-node.sh

code-server: node
	@scripts/install-code-server.sh "$(CODE_SERVER_PREFIX)"

browser:
	@scripts/setup-browser.sh

build: node dist/extension.js

dist/extension.js: $(TS_SOURCES) extension/esbuild.mjs package.json
	@node extension/esbuild.mjs

dist/mindscope.vsix: dist/extension.js package.json README.md scripts/package-vsix.sh $(shell find pyserver kernel runtime -name '*.py' -o -name '*.json' -o -name '*.png' 2>/dev/null)
	@scripts/bundle-python.sh
	@scripts/package-vsix.sh $@

package: python node build dist/mindscope.vsix

demo: setup package
	@node dist/demo/serve.js --port $(PORT) $(if $(SCREENSHOT),--screenshot $(SCREENSHOT))

demo-stop:
	@node dist/demo/serve.js --stop

test: setup
	@scripts/run-tests.sh

test-python: python
	@$(VENV_BIN)/python -m pytest -q

test-unit: build
	@node --test dist/test/unit/

test-e2e: setup
	@node dist/test/e2e/driver.js

check: python node
	$(VENV_BIN)/ruff check .
	$(VENV_BIN)/ruff format --check .
	$(VENV_BIN)/mypy
	npx --no-install tsc -p . --noEmit
	npx --no-install eslint .
	npx --no-install prettier --check .

generate:
	node scripts/gen-contracts.mjs
	node scripts/gen-settings-doc.mjs

facts: python
	@$(VENV_BIN)/python -m scripts.checker_facts

clean:
	rm -rf dist bundled test-results .build

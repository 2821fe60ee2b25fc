#!/usr/bin/env bash
# Puts the server's pure-Python dependencies (pinned as in the lock) into bundled/libs, so the
# packaged extension's server runs with any Python 3.9+ the user points it at.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
pins=$(grep -E '^(pygls|lsprotocol|jedi|parso|attrs|cattrs|typing_extensions|exceptiongroup)==' requirements/dev.lock)
rm -rf bundled/libs
mkdir -p bundled/libs
# shellcheck disable=SC2086
registry_guard .venv/bin/python -m pip install --disable-pip-version-check -q --no-deps --target bundled/libs $pins
find bundled/libs -name '__pycache__' -prune -exec rm -rf {} +
# Third-party typeshed stubs (5,000 files for requests, tensorflow...) say nothing about
# MindSpore and would make the .vsix four times larger and vsce's scan minutes long.
rm -rf bundled/libs/jedi/third_party/typeshed/stubs

#!/usr/bin/env bash
# Runs every suite even when one fails, then exits non-zero if any did.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()
run() {
  local name=$1
  shift
  printf '\n\033[1m== %s\033[0m\n' "$name"
  "$@" || failed+=("$name")
}
run "python (pytest)" .venv/bin/python -m pytest -q -p no:cacheprovider
# The full run includes the slow 50k-op graph memory test (skipped by a bare `node --test`).
run "typescript unit (node --test)" env MINDSCOPE_GRAPH_MEMORY_50K=1 node --test dist/test/unit/
run "end-to-end (code-server + Chromium)" node dist/test/e2e/driver.js
if ((${#failed[@]})); then
  printf '\n\033[1;31mfailed suites: %s\033[0m\n' "${failed[*]}"
  exit 1
fi
printf '\n\033[1;32mall suites passed\033[0m\n'

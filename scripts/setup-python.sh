#!/usr/bin/env bash
# Creates .venv with the pinned Python environment (MindSpore 2.10.0 with numpy<2, the server's
# and the kernel's dependencies, the test and lint tools) and installs MindScope into it, editable.
# Reuses a venv whose lock stamp matches, so a warm run costs a few milliseconds.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
LOCK=requirements/dev.lock
STAMP=.venv/.mindscope-lock-$(cksum <"$LOCK" | cut -d' ' -f1)-$(cksum <pyproject.toml | cut -d' ' -f1)
[[ -f "$STAMP" && -x .venv/bin/python ]] && exit 0

need_cmd "$PYTHON" "Install Python 3.9-3.11 (apt-get install python3 python3-venv) or run with PYTHON=/path/to/python3."
"$PYTHON" - <<'PY' || die "MindSpore 2.10 needs Python 3.9-3.11; $PYTHON is $("$PYTHON" -V 2>&1). Run with PYTHON=/path/to/python3.11."
import sys
sys.exit(0 if (3, 9) <= sys.version_info[:2] <= (3, 11) else 1)
PY
if [[ ! -x .venv/bin/python ]]; then
  say "creating .venv with $("$PYTHON" -V 2>&1)"
  "$PYTHON" -m venv .venv || die "'$PYTHON -m venv' failed: install the venv module (apt-get install python3-venv)."
fi
say "installing the pinned Python packages (MindSpore is an 800 MB download the first time)"
registry_guard .venv/bin/python -m pip install --disable-pip-version-check -q -r "$LOCK"
registry_guard .venv/bin/python -m pip install --disable-pip-version-check -q --no-deps --no-build-isolation -e .
rm -f .venv/.mindscope-lock-*
touch "$STAMP"
say "Python environment ready: .venv ($(.venv/bin/python -c 'import mindspore; print("MindSpore", mindspore.__version__)' 2>/dev/null))"

#!/usr/bin/env bash
# Debian's headless Chromium drives the workbench in the end-to-end tests and the demo screenshot.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
if [[ -n "${CHROMIUM:-}" ]]; then
  [[ -x "$CHROMIUM" ]] || die "CHROMIUM=$CHROMIUM is not an executable."
  exit 0
fi
command -v chromium >/dev/null 2>&1 && exit 0
apt_install chromium

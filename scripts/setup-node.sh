#!/usr/bin/env bash
# Installs the node dependencies exactly as package-lock.json pins them, when the lock changed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
need_cmd node "Install Node.js 20 or newer (apt-get install nodejs npm)."
need_cmd npm "Install npm (apt-get install npm)."
major=$(node -p 'process.versions.node.split(".")[0]')
((major >= 20)) || die "Node.js 20 or newer is needed; this is $(node -v)."
STAMP=node_modules/.mindscope-lock-$(cksum <package-lock.json | cut -d' ' -f1)
[[ -f "$STAMP" ]] && exit 0
say "installing node dependencies from package-lock.json"
registry_guard npm ci --no-audit --no-fund --loglevel=error
touch "$STAMP"

#!/usr/bin/env bash
# Installs code-server (VS Code for the web) from the npm registry only: its postinstall would
# fetch prebuilt binaries from GitHub, which this project's machines cannot reach, so native
# modules are rebuilt from source against the local Node headers instead.
# Usage: scripts/install-code-server.sh PREFIX    (idempotent: a finished install is reused)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
VER=${CODE_SERVER_VERSION:-4.100.3} # newest line whose engines.node is 20
PREFIX=${1:?usage: install-code-server.sh PREFIX}
STAMP="$PREFIX/.installed-$VER"
if [[ -f "$STAMP" && -x "$PREFIX/bin/code-server" ]]; then
  exit 0
fi
need_cmd node "Install Node.js 20 (apt-get install nodejs npm)."
need_cmd npm "Install npm (apt-get install npm)."
apt_install build-essential python3 pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev ripgrep
say "installing code-server $VER into $PREFIX (first time only, a few minutes)"
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
export npm_config_nodedir=${npm_config_nodedir:-/usr} # local headers: node-gyp never downloads them
export npm_config_yes=true                            # node-pty's install runs `npx node-gyp`
export npm_config_update_notifier=false
registry_guard npm install -g --prefix "$PREFIX" --ignore-scripts --no-audit --no-fund "code-server@$VER"
CS="$PREFIX/lib/node_modules/code-server"
(cd "$CS" && npm rebuild argon2)
cd "$CS/lib/vscode"
npm install --omit=dev --ignore-scripts --no-audit --no-fund
npm rebuild kerberos node-pty @parcel/watcher @vscode/spdlog native-watchdog @vscode/deviceid
mkdir -p node_modules/@vscode/ripgrep/bin && ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
ln -sfn node_modules node_modules.asar # the rest mirrors code-server's own postinstall.sh
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
(cd extensions && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
"$PREFIX/bin/code-server" --version >/dev/null
touch "$STAMP"
say "code-server $VER ready"

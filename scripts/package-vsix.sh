#!/usr/bin/env bash
# Builds dist/mindscope.vsix from a staging folder that holds only what ships: vsce would
# otherwise walk .venv and node_modules (hundreds of thousands of files) before filtering.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
OUT=${1:-dist/mindscope.vsix}
STAGE=.build/vsix
rm -rf "$STAGE"
mkdir -p "$STAGE/dist"
cp package.json README.md "$STAGE/"
cp dist/extension.js "$STAGE/dist/"
cp -r dist/webview "$STAGE/dist/" # panels, side panel and notebook renderer bundles
for d in pyserver/mindscope_ls kernel/mindscope_kernel runtime/mindscope_runtime schemas docs bundled/libs media; do
  [[ -d "$d" ]] && mkdir -p "$STAGE/$(dirname "$d")" && cp -r "$d" "$STAGE/$d"
done
cp pyserver/mindscope_start.py "$STAGE/pyserver/" # starts every Python child (python/child.ts)
find "$STAGE" -name '__pycache__' -prune -exec rm -rf {} +
printf '%s\n' '**/*.map' >"$STAGE/.vscodeignore"
(cd "$STAGE" && ../../node_modules/.bin/vsce package --no-dependencies --allow-missing-repository \
  --skip-license --no-rewrite-relative-links -o "../../$OUT" >/dev/null) ||
  die "vsce could not package the extension (run the command in $STAGE to see why)."
say "packaged $OUT ($(du -h "$OUT" | cut -f1))"

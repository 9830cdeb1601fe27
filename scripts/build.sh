#!/usr/bin/env bash
# Builds the committed artefacts from source: pkg/ (the engine as Wasm, by wasm-bindgen and wasm-opt),
# js/types.d.ts, schema/ and docs/reference.md (generated from the Rust types), the Action bundle and
# the dashboard page.
#   scripts/build.sh           build in place
#   scripts/build.sh --check   build into a scratch folder and fail if the committed copies differ
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

check=0
[[ ${1:-} == --check ]] && check=1
out=.
if ((check)); then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out/pkg" "$out/schema" "$out/js"

# Schemas first: the Wasm embeds schema/config.schema.json (configSchema()), so it must be compiled
# after the schema is current, or one build embeds the previous schema and the next build differs.
# (With --check the Wasm embeds the tree's schema, which the check below holds to the fresh one.)
cargo run --quiet --bin prflow-native -- schemas > "$out/schema/all.json"
node scripts/gen-types.mjs "$out/schema/all.json" "$out/schema" "$out/js/types.d.ts"
rm "$out/schema/all.json"
mkdir -p "$out/docs"
node scripts/gen-reference.mjs "$out/schema/config.schema.json" target/debug/prflow-native "$out/docs/reference.md"

# The wasm32 std is built from Debian's rust-web-src by Debian's cargo/rustc pair (TOOLCHAIN.md).
# One build for the Action, the CLI and the library (profile.release, opt-level "s"). scripts/test.sh
# runs the engine's Wasm tests with the same flags, so they share its build of std.
wasm_env=(env RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=target/wasm RUSTFLAGS='--cfg getrandom_backend="wasm_js"')
"${wasm_env[@]}" /usr/bin/cargo build --quiet --release --lib --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort
wasm-bindgen --target web --out-dir "$out/pkg" --out-name prflow target/wasm/wasm32-unknown-unknown/release/prflow.wasm
wasm-opt -Os --strip-debug --strip-producers "$out/pkg/prflow_bg.wasm" -o "$out/pkg/prflow_bg.wasm"

# The pages' engines: pkg/page/ the dashboard's decisions only, pkg/sim/ the simulations', each built for
# size (profile.page: opt-level z; a panic aborts at once, with no formatting code; std built with its
# optimize_for_size feature; no file and line for panic locations, which a trap never prints). Leaving the
# other decisions out is measured to pay (docs/performance.md: 45% of the page's gzipped bytes). The same
# exports, so wasm-bindgen's glue must come out as pkg/prflow.js, which the pages bundle; only the .wasm
# is kept.
page_env=(env RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=target/wasm-page RUSTFLAGS='--cfg getrandom_backend="wasm_js" -Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none')
glue=$(mktemp -d)
for host in page sim; do
  "${page_env[@]}" /usr/bin/cargo build --quiet --profile page --lib --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size --no-default-features --features "$host"
  wasm-bindgen --target web --out-dir "$glue" --out-name prflow target/wasm-page/wasm32-unknown-unknown/page/prflow.wasm
  if ! cmp -s "$glue/prflow.js" "$out/pkg/prflow.js"; then
    echo "build: the $host build's wasm-bindgen glue differs from pkg/prflow.js; the pages bundle that one" >&2
    exit 1
  fi
  mkdir -p "$out/pkg/$host"
  # Flattened and re-rerelooped before -Oz twice, and told that no pointer below 1 KB is dereferenced
  # (Rust's data and stack sit above it): about 1.5% smaller, and the page's engine faster in chromium.
  wasm-opt --low-memory-unused --flatten --rereloop -Oz -Oz --strip-debug --strip-producers "$glue/prflow_bg.wasm" -o "$out/pkg/$host/prflow_bg.wasm"
done
rm -rf "$glue"

# The simulations' plots (issue 19), from the Wasm just built: deterministic, a fixed seed.
node scripts/gen-sim-plots.mjs "$out/docs" "$out/pkg"

if [[ -f action/build.mjs ]]; then
  mkdir -p "$out/action/dist"
  node action/build.mjs "$out/action/dist" "$out/pkg"
fi

if [[ -f page/build.mjs ]]; then
  mkdir -p "$out/page/dist"
  node page/build.mjs "$out/page/dist" "$out/pkg"
fi

if ((check)); then
  status=0
  for dir in pkg schema js/types.d.ts docs/reference.md docs/sim-review-waits.svg docs/sim-review-sweep.svg docs/sim-queue-landings.svg action/dist page/dist; do
    [[ -e $out/$dir ]] || continue
    if ! diff -r "$out/$dir" "$dir" >/dev/null 2>&1; then
      echo "build check: committed $dir differs from a fresh build of the source; run scripts/build.sh and commit" >&2
      diff -r "$out/$dir" "$dir" | head -20 >&2 || true
      status=1
    fi
  done
  ((status == 0)) && echo "build check: pkg/, schema/, js/types.d.ts, docs/reference.md, action/dist and page/dist match a fresh build"
  exit $status
fi
for f in pkg/prflow_bg.wasm pkg/page/prflow_bg.wasm pkg/sim/prflow_bg.wasm; do
  echo "build: $f $(wc -c < "$f") bytes ($(gzip -9 < "$f" | wc -c) gzipped)"
done

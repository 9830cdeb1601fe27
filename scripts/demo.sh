#!/usr/bin/env bash
# The main job on a machine with no GitHub: installs the toolchain, then runs prflow on the sample
# repository and prints what it would change and why.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$PATH"
exec node scripts/demo.mjs "$@"

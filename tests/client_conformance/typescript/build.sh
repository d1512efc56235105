#!/usr/bin/env bash
# Prepares the TypeScript client testee: node >= 18 and the pinned tsc and
# @types/node of tests/conformance/typescript (its build.sh installs them when
# they are missing), then compiles testee.ts and bench.ts with the generated
# client under <OUTPUT_ROOT>/typescript/src/ (default: generated) into
# target/client_conformance/typescript/dist. The strict checks of the client
# itself (tsc 5 and 7, Prettier, typescript-eslint) run in
# tests/conformance/typescript/build.sh. With CLIENT_RENAMED (the renamed
# contract's tree, tests/client_conformance/renamed.rs) its client and
# rewritten testee.ts are compiled by the same tsc run into dist/renamed
# (`run.sh renamed`). Exit 0 when ready, 3 (1 when CI=true) when no toolchain.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-${OUTPUT_ROOT:-generated}}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
state="$root/target/client_conformance/typescript"
toolchain="$root/tests/conformance/typescript"
tsc="$toolchain/node_modules/.bin/tsc"

# missing
. "$root/tests/toolchain.sh"

if [ ! -x "$tsc" ] || [ ! -d "$toolchain/node_modules/@types/node" ] || ! command -v node >/dev/null ||
  [ "$toolchain/package-lock.json" -nt "$toolchain/node_modules/.package-lock.json" ]; then
  CONFORMANCE_TOOLCHAIN_ONLY=1 bash "$toolchain/build.sh" "$out" # exits 3 (or 1 in CI) when no toolchain
fi
command -v node >/dev/null || missing "node >= 18"
for file in coprocess.ts client.ts; do
  [ -f "$out/typescript/src/$file" ] || { echo "no $out/typescript/src/$file (cargo run -p codegen)" >&2; exit 1; }
done

strict=(--strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes --noImplicitOverride
  --noPropertyAccessFromIndexSignature --noImplicitReturns --noFallthroughCasesInSwitch
  --noUnusedLocals --noUnusedParameters --forceConsistentCasingInFileNames
  --target es2020 --lib es2020 --module es2020 --moduleResolution bundler
  --types node --typeRoots "$toolchain/node_modules/@types")
rm -rf "$state/src" "$state/dist" && mkdir -p "$state/src"
cp "$out/typescript/src/coprocess.ts" "$out/typescript/src/client.ts" "$here"/*.ts "$state/src/"
sources=("$state/src/"*.ts)
if [ -n "${CLIENT_RENAMED:-}" ]; then
  mkdir -p "$state/src/renamed"
  cp "$CLIENT_RENAMED/generated/typescript/src/coprocess.ts" "$CLIENT_RENAMED/generated/typescript/src/client.ts" \
    "$CLIENT_RENAMED/tests/client_conformance/typescript/testee.ts" "$state/src/renamed/"
  sources+=("$state/src/renamed/"*.ts)
fi
"$tsc" "${strict[@]}" --rootDir "$state/src" --outDir "$state/dist" "${sources[@]}"
echo '{"type": "module"}' >"$state/dist/package.json"
echo "typescript: client testee built at ${state#"$root"/}/dist/testee.js" >&2

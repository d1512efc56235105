#!/usr/bin/env bash
# Builds the TypeScript end-to-end client with the toolchain of
# tests/conformance/typescript/build.sh (node >= 18, the pinned tsc and
# @types/node in that directory's node_modules), which is run only when they
# are not there yet; then compiles client.ts with the generated client.ts and
# coprocess.ts (as sdk/) under the same strict tsc flags into
# target/e2e/typescript. Exit 0 ok, 1 failed, 3 toolchain missing (1 with
# CI=true).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
toolchain="$root/tests/conformance/typescript"
tsc="$toolchain/node_modules/.bin/tsc"
out="$root/target/e2e/typescript"

if [ ! -x "$tsc" ] || [ ! -d "$toolchain/node_modules/@types/node" ] || ! command -v node >/dev/null ||
  [ "$toolchain/package-lock.json" -nt "$toolchain/node_modules/.package-lock.json" ]; then
  CONFORMANCE_TOOLCHAIN_ONLY=1 bash "$root/tests/conformance/typescript/build.sh" generated # exits 3 (or 1 in CI) when no toolchain
fi

strict=(--strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes --noImplicitOverride
  --noPropertyAccessFromIndexSignature --noImplicitReturns --noFallthroughCasesInSwitch
  --noUnusedLocals --noUnusedParameters --forceConsistentCasingInFileNames
  --target es2020 --lib es2020 --module es2020 --moduleResolution bundler
  --types node --typeRoots "$toolchain/node_modules/@types")
rm -rf "$out/src" "$out/dist" && mkdir -p "$out/src/sdk"
cp "$root/generated/typescript/src/coprocess.ts" "$root/generated/typescript/src/client.ts" "$out/src/sdk/"
cp "$here/client.ts" "$out/src/"
"$tsc" "${strict[@]}" --outDir "$out/dist" "$out/src/client.ts" "$out/src/sdk/"*.ts
echo '{"type": "module"}' >"$out/dist/package.json"
echo "typescript: e2e client built at ${out#"$root"/}/dist/client.js" >&2

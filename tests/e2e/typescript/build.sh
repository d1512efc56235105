#!/usr/bin/env bash
# Builds the TypeScript end-to-end client with the toolchain of
# tests/conformance/typescript/build.sh (node >= 18 and the pinned tsc in that
# directory's node_modules), which is run only when tsc is not there yet; then
# compiles client.ts with the generated coprocess.ts under the same strict tsc
# flags into target/e2e/typescript. Exit 0 ok, 1 failed, 3 toolchain missing
# (1 with CI=true).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
tsc="$root/tests/conformance/typescript/node_modules/.bin/tsc"
out="$root/target/e2e/typescript"

if [ ! -x "$tsc" ] || ! command -v node >/dev/null; then
  bash "$root/tests/conformance/typescript/build.sh" generated # exits 3 (or 1 in CI) when no toolchain
fi

strict=(--strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes --noImplicitOverride
  --noPropertyAccessFromIndexSignature --noImplicitReturns --noFallthroughCasesInSwitch
  --noUnusedLocals --noUnusedParameters --forceConsistentCasingInFileNames
  --target es2020 --lib es2020 --module es2020 --moduleResolution bundler)
rm -rf "$out/src" && mkdir -p "$out/src"
cp "$root/generated/typescript/src/coprocess.ts" "$here/client.ts" "$here/node.d.ts" "$out/src/"
"$tsc" "${strict[@]}" --outDir "$out/dist" "$out/src/"*.ts
echo '{"type": "module"}' >"$out/dist/package.json"
echo "typescript: e2e client built at ${out#"$root"/}/dist/client.js" >&2

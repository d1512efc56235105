#!/usr/bin/env bash
# Decode throughput of the constrained frame (`Turn`, codegen/tests/schemas/
# constraints.json) through the generated strict TypeScript decoder vs
# JSON.parse.
#   tests/conformance/typescript/bench-constrained.sh [OUTPUT_ROOT [SECONDS_PER_MEASURE]]
#     (default OUTPUT_ROOT: codegen/tests/golden/constraints, the committed
#     golden output; generated/ has no constrained type)
# Compiles OUTPUT_ROOT's coprocess.ts with bench-constrained/bench.ts under
# build.sh's strict tsc flags into target/conformance/typescript-constrained
# (build.sh installs tsc, and checks the goldens: it runs first when tsc is missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
output_root="${1:-codegen/tests/golden/constraints}"
case "$output_root" in /*) ;; *) output_root="$root/$output_root" ;; esac
module="$output_root/typescript/src/coprocess.ts"
[ -f "$module" ] || { echo "error: $module does not exist" >&2; exit 1; }
tsc="$here/node_modules/.bin/tsc"
[ -x "$tsc" ] || "$here/build.sh" >&2
out="$root/target/conformance/typescript-constrained"
# build.sh's flags (keep the two alike).
strict=(--strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes --noImplicitOverride
  --noPropertyAccessFromIndexSignature --noImplicitReturns --noFallthroughCasesInSwitch
  --noUnusedLocals --noUnusedParameters --forceConsistentCasingInFileNames
  --target es2020 --lib es2020 --module es2020 --moduleResolution bundler)
rm -rf "$out"
mkdir -p "$out/src"
cp "$module" "$out/src/coprocess.ts"
cp "$here/bench-constrained/bench.ts" "$out/src/bench.ts"
"$tsc" "${strict[@]}" --outDir "$out/dist" "$out/src/"*.ts >&2
echo '{"type": "module"}' >"$out/dist/package.json"
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
exec node "$out/dist/bench.js" "${2:-2}"

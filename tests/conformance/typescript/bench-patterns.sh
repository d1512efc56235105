#!/usr/bin/env bash
# Issue 36's pattern benchmark through the generated TypeScript decoders:
# each probe of PROBES decoded by its probe type's decoder, the best of
# REPEATS decodes; one line per probe, `<number>\t<ms>\t<1 decoded, 0 refused>\t<ms as
# PatternProbePlain, the same frame without a pattern>`
# (tests/conformance/bench-patterns.sh runs it and reads the lines).
#
#   tests/conformance/typescript/bench-patterns.sh OUTPUT_ROOT PROBES [REPEATS]
#
# Compiles OUTPUT_ROOT's coprocess.ts with bench-patterns/bench.ts under
# build.sh's strict tsc flags (and Node's typings) into
# target/conformance/typescript-patterns (build.sh installs tsc: it runs
# first when tsc is missing) and runs it with node.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: $0 OUTPUT_ROOT PROBES [REPEATS]" >&2; exit 2; }
module="$1/typescript/src/coprocess.ts"
[ -f "$module" ] || { echo "error: $module does not exist" >&2; exit 1; }
tsc="$here/node_modules/.bin/tsc"
[ -x "$tsc" ] || "$here/build.sh" >&2
out="$root/target/conformance/typescript-patterns"
# build.sh's flags (keep the two alike), but es2022 for the top-level await, and
# Node's typings for the file reading.
strict=(--strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes --noImplicitOverride
  --noPropertyAccessFromIndexSignature --noImplicitReturns --noFallthroughCasesInSwitch
  --noUnusedLocals --noUnusedParameters --forceConsistentCasingInFileNames
  --target es2022 --lib es2022 --module es2022 --moduleResolution bundler
  --typeRoots "$here/node_modules/@types" --types node)
rm -rf "$out"
mkdir -p "$out/src"
cp "$module" "$out/src/coprocess.ts"
cp "$here/bench-patterns/bench.ts" "$out/src/bench.ts"
"$tsc" "${strict[@]}" --outDir "$out/dist" "$out/src/"*.ts >&2
echo '{"type": "module"}' >"$out/dist/package.json"
exec node "$out/dist/bench.js" "$2" "${3:-3}"

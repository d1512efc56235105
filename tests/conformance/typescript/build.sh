#!/usr/bin/env bash
# Builds the TypeScript conformance testee.
#   tests/conformance/typescript/build.sh [OUTPUT_ROOT]
# (a) finds node (>= 18) and npm, or installs Debian's with apt-get, then the
#     pinned tsc 5.x and the current major (7.x) from package-lock.json (npm ci)
#     into node_modules/;
# (b) type-checks <OUTPUT_ROOT>/typescript/src/coprocess.ts (default OUTPUT_ROOT
#     = generated) and every golden copy under codegen/tests/golden/*/ with the
#     strictest tsc flags, under both, and checks that each, and the runtime
#     template codegen/src/targets/typescript/runtime.ts, is exactly what the
#     pinned Prettier prints (format-check.sh), and lints each and the
#     template with typescript-eslint's strict-type-checked and
#     stylistic-type-checked configs (eslint.config.mjs), failing with the
#     findings; the same for the session client <OUTPUT_ROOT>/typescript/src/
#     client.ts and each golden's (type-checked with the pinned @types/node:
#     it runs on Node.js), which embeds its runtime template codegen/src/
#     targets/typescript/client_runtime.ts with the role placeholders filled;
# (c) compiles the testee with the generated file into target/conformance/typescript.
# Exit 0 on success; 3 (or 1 when CI=true) when no toolchain can be had.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# The goldens checked beside OUTPUT_ROOT (the proof round points this at a
# folder linking every golden and generated/, so one run of each tool covers them).
GOLDENS="${CONFORMANCE_GOLDENS:-$root/codegen/tests/golden}"
cd "$root"
output_root="${1:-generated}"
file="typescript/src/coprocess.ts"
out="${CONFORMANCE_BUILD:-$root/target/conformance/typescript}"

# missing
. "$(dirname "${BASH_SOURCE[0]}")/../../toolchain.sh"

node_major() {
  "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

# (a) node and npm: PATH first. On a fresh Debian machine, Debian's nodejs and
# npm packages (apt is the only registry that ships node itself); then the
# pinned typescript, prettier and eslint from the npm registry into
# node_modules/ (gitignored).
have_node() {
  command -v node >/dev/null && command -v npm >/dev/null && [ "$(node_major node)" -ge 18 ]
}
if ! have_node; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="$(command -v sudo || true)"
  if command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || [ -n "$sudo" ]; }; then
    echo "typescript: installing nodejs and npm with apt-get" >&2
    $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q nodejs npm >/dev/null || true
  fi
  have_node || missing "node >= 18 and npm (apt-get install nodejs npm)"
fi

# A larger young generation for every node tool below (tsc, ESLint,
# Prettier): fewer scavenges of the compiler's heap on a large file (the names
# proof's check and lint: 34.6 -> 32.9 s of CPU).
export NODE_OPTIONS="${NODE_OPTIONS:-} --max-semi-space-size=64"
tsc="$here/node_modules/.bin/tsc"
# The current TypeScript major (7, which removed `node10` resolution) checks
# the same files with the same flags, next to the pinned 5.x.
tsc_current="$here/node_modules/typescript-current/bin/tsc"
lock="$here/package-lock.json"
stamp="$here/node_modules/.package-lock.json"
eslint="$here/node_modules/.bin/eslint"
if [ ! -x "$tsc" ] || [ ! -x "$tsc_current" ] || [ ! -x "$eslint" ] || [ "$lock" -nt "$stamp" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) || missing "typescript from the npm registry (npm ci failed)"
fi
# CONFORMANCE_TOOLCHAIN_ONLY=1 (the client and e2e builds): node and the
# pinned tools only, no check (the proof round checks generated/ and every
# golden, the clients among them).
[ -z "${CONFORMANCE_TOOLCHAIN_ONLY:-}" ] || { echo "typescript: toolchain ready" >&2; exit 0; }

# (b) the strict checks, on the generated file and on every golden copy.
if [ ! -f "$output_root/$file" ]; then
  echo "error: $output_root/$file does not exist; run: cargo run -p codegen -- --out $output_root" >&2
  exit 1
fi
# (tsconfig.json gives typescript-eslint the same options: keep the two alike.)
strict=(--strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes --noImplicitOverride
  --noPropertyAccessFromIndexSignature --noImplicitReturns --noFallthroughCasesInSwitch
  --noUnusedLocals --noUnusedParameters --forceConsistentCasingInFileNames
  --target es2020 --lib es2020 --module es2020 --moduleResolution bundler)

candidates=("$output_root/$file")
for golden in "$GOLDENS"/*/"$file"; do
  [ -f "$golden" ] && candidates+=("$golden")
done
clients=()
for candidate in "${candidates[@]}"; do
  client="$(dirname "$candidate")/client.ts"
  [ -f "$client" ] || { echo "error: $client does not exist; run: cargo run -p codegen" >&2; exit 1; }
  clients+=("$client")
done
runtime=codegen/src/targets/typescript/runtime.ts
client_runtime=codegen/src/targets/typescript/client_runtime.ts
inputs=("${candidates[@]}" "${clients[@]}" "$client_runtime" "$here"/*.ts "$here/format-check.sh" "$here/lint.sh" "$here/check.mjs" "$here/eslint.config.mjs" "$here/tsconfig.json"
  "$here/lint/runtime-stub.d.ts" "$lock" "$runtime")
if checked_before "$out/.checked" "${inputs[@]}" && [ -f "$out/dist/testee.js" ]; then
  echo "typescript: ${#candidates[@]} file(s) unchanged since they passed; $out/dist/testee.js up to date" >&2
  exit 0
fi
# Each file is an ES module, so one tsc run checks them all independently:
# the pinned tsc checks the frames files and the session clients in one
# program, typed by the pinned @types/node (the clients run on Node.js); the
# current major checks the frames files without it (they use no Node.js API)
# and the clients with it. The client runtime template names the role types
# by placeholders (`coprocess.RoleResponse`, `decodeRoleResponseOf`) that no
# coprocess.ts declares until the emitter fills them with the contract's
# names, and the filled names change its line widths: it is type-checked,
# format-checked and linted as rendered, inside every client.ts.
node_types=(--types node --typeRoots "$here/node_modules/@types")
# The pinned tsc's check and typescript-eslint's lint share one program
# (check.mjs: tsconfig.json's options, which are the flags above): the
# pinned compiler parses and checks the frames files and clients once.
"$here/lint.sh" --check "${candidates[@]}" "${clients[@]}"
# The output root's own frames file is checked by the current major as part
# of the testee's program below (the same flags, no Node.js types): here only
# the goldens' are.
goldens=("${candidates[@]:1}")
[ ${#goldens[@]} -eq 0 ] || "$tsc_current" "${strict[@]}" --noEmit "${goldens[@]}"
"$tsc_current" "${strict[@]}" "${node_types[@]}" --noEmit "${clients[@]}"
"$here/format-check.sh" "${candidates[@]}" "$runtime" "${clients[@]}"
# The runtime template alone, with the stub of the two constants it takes
# from the generated file around it.
"$here/lint.sh" "$runtime"
checked=$((${#candidates[@]} + ${#clients[@]}))

# (c) the testee: the generated file and testee.ts, compiled to ES modules.
mkdir -p "$out/src"
cp "$output_root/$file" "$out/src/coprocess.ts"
cp "$here"/*.ts "$out/src/"
# (emitted by the current major: the faster compiler, the same strict flags)
"$tsc_current" "${strict[@]}" --outDir "$out/dist" "$out/src/"*.ts ||
  { echo "typescript: the current tsc refused the testee's program ($out/src/coprocess.ts is $output_root/$file)" >&2; exit 1; }
echo '{"type": "module"}' >"$out/dist/package.json"
mark_checked "$out/.checked" "${inputs[@]}"
echo "typescript: checked $checked file(s), built $out/dist/testee.js" >&2

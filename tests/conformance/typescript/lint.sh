#!/usr/bin/env bash
# Lints TypeScript files with typescript-eslint's strict-type-checked and
# stylistic-type-checked configs (eslint.config.mjs; versions pinned in
# package.json), type-aware with tsconfig.json's compiler options.
#   tests/conformance/typescript/lint.sh FILE...
#   tests/conformance/typescript/lint.sh --check FILE...   (the pinned tsc's
#     strict check first, on the same program: check.mjs)
# Exit 0 when no file has a finding; 1
# with the findings; 3 (1 when CI=true) when no node/npm can be had. Installs
# the pinned toolchain (npm ci) when missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../../toolchain.sh"

command -v node >/dev/null && command -v npm >/dev/null || missing "node and npm (apt-get install nodejs npm)"
eslint="$here/node_modules/.bin/eslint"
if [ ! -x "$eslint" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) || missing "eslint from the npm registry (npm ci failed)"
fi

# The type information: tsconfig.json's compiler options over exactly these
# files, and the stub of the two constants the runtime template reads.
# --check: the pinned tsc's strict check too, on the program the lint reads
# (check.mjs): what build.sh runs on the frames files and the clients.
if [ "${1:-}" = --check ]; then
  shift
  exec node "$here/check.mjs" "$@"
fi

project="$(mktemp -d)"
trap 'rm -rf "$project"' EXIT
files=()
for file in "$@"; do
  files+=("$(cd "$(dirname "$file")" && pwd)/$(basename "$file")")
done
node -e '
  const [tsconfig, stub, out, ...files] = process.argv.slice(1);
  const project = { extends: tsconfig, include: [], files: [stub, ...files] };
  require("fs").writeFileSync(out, JSON.stringify(project, null, 2));
' "$here/tsconfig.json" "$here/lint/runtime-stub.d.ts" "$project/tsconfig.json" "${files[@]}"

# From /: ESLint lints only files under its working directory (one outside
# it would be reported ignored, a warning, which --max-warnings 0 refuses),
# and an OUTPUT_ROOT may lie anywhere.
cd /
if ! "$eslint" --config "$here/eslint.config.mjs" --parser-options "project:$project/tsconfig.json" \
  --max-warnings 0 "${files[@]}" >&2; then
  echo "error: typescript-eslint has findings in the file(s) above" >&2
  exit 1
fi

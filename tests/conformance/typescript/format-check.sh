#!/usr/bin/env bash
# Checks that TypeScript files are exactly what the pinned Prettier (default
# options; version in package.json) prints.
#   tests/conformance/typescript/format-check.sh FILE...
# Exit 0 when every file is Prettier's output; 1 with a unified diff of what
# Prettier would change in each file that is not; 3 (1 when CI=true) when no
# node/npm can be had. Installs the pinned toolchain (npm ci) when missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../../toolchain.sh"

command -v node >/dev/null && command -v npm >/dev/null || missing "node and npm (apt-get install nodejs npm)"
prettier="$here/node_modules/.bin/prettier"
if [ ! -x "$prettier" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) || missing "prettier from the npm registry (npm ci failed)"
fi

version="prettier $("$prettier" --version)"
status=0
for file in "$@"; do
  # --no-config and --no-editorconfig: Prettier's defaults, whatever sits around the file;
  # --ignore-path /dev/null: checked even where .gitignore lists it (Prettier 3 reads it).
  prints_as Prettier "$version" "$file" \
    "$prettier" --no-config --no-editorconfig --ignore-path /dev/null --stdin-filepath "$file" || status=1
done
exit "$status"

#!/usr/bin/env bash
# Lints the generated reference page with the pinned markdownlint-cli2.
#   tests/markdown/lint.sh [FILE...]
# (a) finds node (>= 18) and npm, or installs Debian's with apt-get, then the
#     pinned markdownlint-cli2 (package-lock.json beside this script) with
#     npm ci into target/toolchains/markdownlint;
# (b) lints each FILE, by default generated/docs/coprocess-protocol.md and
#     every golden copy under codegen/tests/golden/*/docs/, with the rules of
#     .markdownlint-cli2.jsonc beside this script.
# Exit 0 when clean, 1 with the findings; 3 (or 1 when CI=true) when no
# toolchain can be had.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tools="$root/target/toolchains/markdownlint"

# missing
. "$here/../toolchain.sh"

node_major() {
  "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}
have_node() {
  command -v node >/dev/null && command -v npm >/dev/null && [ "$(node_major node)" -ge 18 ]
}
if ! have_node; then
  apt_install nodejs npm || true
  have_node || missing "node >= 18 and npm (apt-get install nodejs npm)"
fi

# (a) The pin: the lock is copied beside node_modules/ and installed when it
# changed (npm ci writes node_modules/.package-lock.json after it).
# Tests run this script concurrently: one install at a time, and no lint
# while another run's npm ci rewrites node_modules/ (the lock is held until
# this script exits; a missing flock only loses the serialization).
cli="$tools/node_modules/markdownlint-cli2/markdownlint-cli2-bin.mjs"
mkdir -p "$(dirname "$tools")"
exec 9>"$tools.lock"
command -v flock >/dev/null 2>&1 && flock 9
if [ ! -f "$cli" ] || ! cmp -s "$here/package-lock.json" "$tools/package-lock.json"; then
  mkdir -p "$tools"
  cp "$here/package.json" "$here/package-lock.json" "$tools/"
  (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error >&2) || missing "markdownlint-cli2 from the npm registry (npm ci failed)"
fi
[ -f "$cli" ] || missing "markdownlint-cli2 (no $cli after npm ci)"

# (b) The files: the arguments, else the generated page and every golden.
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("$root/generated/docs/coprocess-protocol.md")
  for golden in "$root"/codegen/tests/golden/*/docs/coprocess-protocol.md; do
    [ -f "$golden" ] && files+=("$golden")
  done
fi
for file in "${files[@]}"; do
  [ -f "$file" ] || { echo "error: $file does not exist (run cargo run -p codegen)" >&2; exit 1; }
done
# --no-globs: the paths are files, never patterns.
node "$cli" --config "$here/.markdownlint-cli2.jsonc" --no-globs "${files[@]}" >&2
echo "markdown: ${#files[@]} file(s) pass markdownlint-cli2" >&2

#!/usr/bin/env bash
# The deliberate step after tests/conformance/bench.sh: its section,
# target/bench/decode.md, replaces the one between the bench markers of
# docs/benchmarks.md (the file's other sections are kept). Review the diff
# before committing it.
#
#   tests/conformance/bench-doc.sh [SECTION]   (default target/bench/decode.md)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
section="${1:-$root/target/bench/decode.md}"
doc="$root/docs/benchmarks.md"
if ! grep -q "^<!-- bench:begin" "$section" 2>/dev/null || ! grep -q "^<!-- bench:end -->" "$section"; then
  echo "error: $section is not a bench section: run tests/conformance/bench.sh first" >&2
  exit 2
fi
if ! grep -q "^<!-- bench:begin" "$doc" || ! grep -q "^<!-- bench:end -->" "$doc"; then
  echo "error: docs/benchmarks.md has no bench markers (<!-- bench:begin ... --> and <!-- bench:end -->)" >&2
  exit 2
fi
awk -v section="$section" '
  /^<!-- bench:begin/ { while ((getline line < section) > 0) print line; skip = 1; next }
  /^<!-- bench:end -->/ { skip = 0; next }
  !skip { print }
' "$doc" >"$doc.new"
mv "$doc.new" "$doc"
echo "bench-doc: ${section#"$root"/} written into docs/benchmarks.md; review with git diff" >&2

#!/usr/bin/env bash
# Decode throughput of every SDK's generated strict decoder next to that
# language's plain JSON parse of the same frames, in one run, written as the
# ratio table of docs/benchmarks.md (between the bench markers; the file's
# other sections are kept).
#
#   tests/conformance/bench.sh            (run from anywhere; ~2 minutes)
#
# Each target is built and checked by its build.sh first, then measured by its
# bench.sh: Rust (serde_json::Value), Python (json.loads), TypeScript
# (JSON.parse), Go (json.Unmarshal into any), JVM (Jackson readTree), .NET
# (JsonDocument.Parse). "plain/strict" is how many times longer the strict
# decoder takes than the plain parse; the goal is at most 1.5.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
doc="$root/docs/benchmarks.md"
rows="$(mktemp)"
trap 'rm -f "$rows"' EXIT

for target in rust python typescript go jvm dotnet; do
  echo "bench: $target" >&2
  if ! bash "$here/$target/build.sh" >/dev/null 2>"$rows.log"; then
    echo "bench: $target did not build (toolchain missing?), left out:" >&2
    cat "$rows.log" >&2
    echo "| $target | (not measured: build.sh failed) | | | |" >>"$rows"
    continue
  fi
  bash "$here/$target/bench.sh" | grep -E "^\| $target \|" >>"$rows" || echo "| $target | (not measured: bench.sh failed) | | | |" >>"$rows"
done
rm -f "$rows.log"

cpus="$(nproc 2>/dev/null || echo '?')"
table="$(mktemp)"
{
  echo "<!-- bench:begin (written by tests/conformance/bench.sh; do not edit by hand) -->"
  echo "## Every SDK in one run: \`tests/conformance/bench.sh\`"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on a $cpus-core machine shared with other builds, so"
  echo "treat the figures as rough. Frames: the handshake request, an \`mcp.call\`"
  echo "request decoded down to \`CallParams\`, and a response decoded down to its"
  echo "\`Verdict\`. \"plain/strict\" is the plain parse's rate over the strict"
  echo "decoder's (how many times longer strict decoding takes); the goal is at most 1.5."
  echo
  echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
  echo "|---|---|---:|---:|---:|"
  cat "$rows"
  echo
  echo "Plain parses: Rust \`serde_json::Value\`, Python \`json.loads\`, TypeScript"
  echo "\`JSON.parse\`, Go \`json.Unmarshal\` into \`any\`, Java Jackson \`readTree\`, C#"
  echo "\`JsonDocument.Parse\`."
  awk -F'|' '$6 ~ /[0-9]/ { t = $2; gsub(/ /, "", t); if ($6 + 0 > 1.5 && !(t in miss)) { miss[t] = 1; list = list (n++ ? ", " : " ") t } } END { if (n) print "\nMissing the 1.5 goal:" list "."; else print "\nEvery target meets the 1.5 goal." }' "$rows"
  echo "<!-- bench:end -->"
} >"$table"

if grep -q "<!-- bench:begin" "$doc"; then
  awk -v table="$table" '
    /<!-- bench:begin/ { while ((getline line < table) > 0) print line; skip = 1; next }
    /<!-- bench:end -->/ { skip = 0; next }
    !skip { print }
  ' "$doc" >"$doc.new"
else
  { cat "$doc"; echo; cat "$table"; } >"$doc.new"
fi
mv "$doc.new" "$doc"
rm -f "$table"
echo "bench: table written to docs/benchmarks.md" >&2
cat "$rows"

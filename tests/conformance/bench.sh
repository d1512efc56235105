#!/usr/bin/env bash
# Decode throughput of every SDK's generated strict decoder next to that
# language's plain JSON parse of the same frames, in one run, written as the
# ratio tables of docs/benchmarks.md's bench section to
# target/bench/decode.md (never to the tracked doc).
#
#   tests/conformance/bench.sh            (run from anywhere; ~2 minutes warm)
#   tests/conformance/bench-doc.sh        (then, deliberately: the section of
#                                          target/bench/decode.md replaces the
#                                          one between docs/benchmarks.md's
#                                          bench markers)
#
# Each target is built and checked by its build.sh first, then measured by its
# bench.sh: Rust (serde_json::Value), Python (json.loads), TypeScript
# (JSON.parse), Go (json.Unmarshal into any), JVM (Jackson readTree), .NET
# (JsonDocument.Parse). "plain/strict" is how many times longer the strict
# decoder takes than the plain parse; the goal is at most 1.5.
#
# The same run measures the constrained frame, `Turn` of
# codegen/tests/schemas/constraints.json (length, pattern, range, item and
# divisor constraints), through each target's bench-constrained.sh, built on
# the committed golden output codegen/tests/golden/constraints (generated/,
# from v2.json, has no constrained type), into a second table.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/target/bench/decode.md"
mkdir -p "$(dirname "$out")"
rows="$(mktemp)"
turn_rows="$(mktemp)"
trap 'rm -f "$rows" "$turn_rows"' EXIT

for target in rust python typescript go jvm dotnet; do
  echo "bench: $target" >&2
  if ! bash "$here/$target/build.sh" >/dev/null 2>"$rows.log"; then
    echo "bench: $target did not build (toolchain missing?), left out:" >&2
    cat "$rows.log" >&2
    echo "| $target | (not measured: build.sh failed) | | | |" >>"$rows"
    echo "| $target | (not measured: build.sh failed) | | | |" >>"$turn_rows"
    continue
  fi
  bash "$here/$target/bench.sh" | grep -E "^\| $target \|" >>"$rows" || echo "| $target | (not measured: bench.sh failed) | | | |" >>"$rows"
  echo "bench: $target, the constrained frame" >&2
  bash "$here/$target/bench-constrained.sh" | grep -E "^\| $target \|" >>"$turn_rows" ||
    echo "| $target | (not measured: bench-constrained.sh failed) | | | |" >>"$turn_rows"
done
rm -f "$rows.log"

# The verdict line under a table: which targets miss the 1.5 goal on any of
# their rows, and which were not measured (verdict <rows> <what>).
verdict() {
  awk -F'|' -v what="$2" '
    { t = $2; gsub(/ /, "", t) }
    $6 ~ /[0-9]/ { if ($6 + 0 > 1.5 && !(t in miss)) { miss[t] = 1; list = list (n++ ? ", " : " ") t } ; next }
    !(t in gone) { gone[t] = 1; absent = absent (m++ ? ", " : " ") t }
    END {
      if (n) print "\nMissing the 1.5 goal" what ":" list "."
      else if (m) print "\nEvery target measured meets the 1.5 goal" what "."
      else print "\nEvery target meets the 1.5 goal" what "."
      if (m) print "Not measured" what ":" absent "."
    }' "$1"
}

cpus="$(nproc 2>/dev/null || echo '?')"
table="$out.new"
{
  echo "<!-- bench:begin (tests/conformance/bench.sh writes it to target/bench/decode.md, tests/conformance/bench-doc.sh copies it here; do not edit by hand) -->"
  echo "## Every SDK in one run: \`tests/conformance/bench.sh\`"
  echo
  echo "The script writes this section to \`target/bench/decode.md\`; updating this"
  echo "file is a separate step, \`tests/conformance/bench-doc.sh\`, that copies it here."
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
  verdict "$rows" ""
  echo
  echo "### The constrained frame: \`Turn\`"
  echo
  echo "\`Turn\` of \`codegen/tests/schemas/constraints.json\`, decoded by each target's"
  echo "generated strict decoder in the committed golden output"
  echo "(\`codegen/tests/golden/constraints\`; \`tests/conformance/<target>/bench-constrained.sh\`)"
  echo "with every constraint checked: \`tool\` 1 to 64 characters matching"
  echo "\`^[a-z][a-z0-9_]*\$\`, \`server\` at most 2048 characters matching \`^[a-z][a-z0-9+.-]*:\`,"
  echo "\`max_turns\` 1 to 100, \`rules\` 1 to 16 unique strings, \`budget_ms\` 0 to 3600000 and a"
  echo "multiple of 1000. The same text in every language, against the same plain parses:"
  echo
  echo '    {"tool":"search_docs","server":"https://example.com/mcp","max_turns":12,"rules":["no_network","read_only","cite_sources"],"budget_ms":30000}'
  echo
  echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
  echo "|---|---|---:|---:|---:|"
  cat "$turn_rows"
  verdict "$turn_rows" " on the constrained frame"
  echo "<!-- bench:end -->"
} >"$table"

mv "$table" "$out"
echo "bench: tables written to ${out#"$root"/} (docs/benchmarks.md: tests/conformance/bench-doc.sh)" >&2
cat "$rows" "$turn_rows"

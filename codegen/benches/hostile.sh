#!/usr/bin/env bash
# Hostile schemas (issue 36, row 6): v2.json with an array type nested N
# deep on `Verdict.x`, or a `$ref` chain of N objects (`Link0.next` refers to
# `Link1`, ...) under `Verdict.x`. Runs the dev-profile `codegen` (what
# `cargo run -p codegen` runs) on each into a fresh directory, under a 4 GB
# address-space cap, and prints the fastest wall time of RUNS runs, the
# peak resident set (`/usr/bin/time`) and the exit code. Needs jq.
#
#   bash codegen/benches/hostile.sh [RUNS] [BINARY]
#
# Prints a markdown table for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-3}"
bin="${2:-}"
if [ -z "$bin" ]; then
  cargo build -q -p codegen
  bin="${CARGO_TARGET_DIR:-target}/debug/codegen"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

nested() { # depth
  jq --argjson n "$1" '.["$defs"].Verdict.properties.x =
    (reduce range($n) as $_ ({"type": "string"}; {"type": "array", "items": .}) + {"description": "d"})' schemas/ipc/v2.json
}
chain() { # links
  jq --argjson n "$1" '
    reduce range($n) as $i (.; .["$defs"]["Link\($i)"] = {"description": "d", "type": "object", "additionalProperties": false,
      "properties": (if $i + 1 == $n then {} else {"next": {"description": "d", "$ref": "#/$defs/Link\($i + 1)"}} end)})
    | .["$defs"].Verdict.properties.x = {"description": "d", "$ref": "#/$defs/Link0"}' schemas/ipc/v2.json
}

measure() { # label schema-file
  local best="" peak=0 code=""
  for _ in $(seq "$runs"); do
    rm -rf "$scratch/out"
    ( ulimit -v 4000000; /usr/bin/time -f "%e %M %x" -o "$scratch/time" "$bin" --schema "$2" --out "$scratch/out" >/dev/null 2>&1 ) || true
    local line; line=$(grep -E '^[0-9.]+ [0-9]+ [0-9]+$' "$scratch/time" || true)
    if grep -q "signal" "$scratch/time"; then code="killed by $(grep -o 'signal [0-9]*' "$scratch/time")"; else code="exit ${line##* }"; fi
    local t=${line%% *} m; m=$(echo "$line" | cut -d' ' -f2)
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    [ "${m:-0}" -gt "$peak" ] && peak=$m
  done
  echo "| $1 | ${best} s | $((peak / 1024)) MB | $code |"
}

echo "| schema | fastest wall time | peak RSS | result |"
echo "|---|---|---|---|"
for depth in 10 12 14 63 64 100; do
  nested "$depth" >"$scratch/nested-$depth.json"
  measure "arrays nested $depth deep" "$scratch/nested-$depth.json"
done
for links in 200 2000; do
  chain "$links" >"$scratch/chain-$links.json"
  measure "\`\$ref\` chain of $links" "$scratch/chain-$links.json"
done

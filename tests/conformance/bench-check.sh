#!/usr/bin/env bash
# The strict-decode ratios (plain/strict) of the named targets beside the
# ones docs/benchmarks.md documents, so that a regression shows.
#
#   tests/conformance/bench-check.sh [TARGET...]   (default: typescript go)
#   BENCH_PASSES=5 tests/conformance/bench-check.sh go
#
# Runs tests/conformance/<target>/bench.sh BENCH_PASSES times (default 3;
# each bench alternates strict and plain rounds and keeps the best of each),
# reads the documented ratio of each row from the table between the bench
# markers of docs/benchmarks.md (the row of the same target and frame), and
# prints every pass's ratio, the best pass and the documented figure. A row
# whose best pass is above its documented ratio is marked OVER and makes the
# script exit 1. The table is also written to target/bench/check.md; nothing
# tracked is written.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
doc="$root/docs/benchmarks.md"
passes="${BENCH_PASSES:-3}"
[[ $passes =~ ^[1-9][0-9]*$ ]] || { echo "error: BENCH_PASSES must be a positive integer, not '$passes'" >&2; exit 2; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(typescript go)
out="$root/target/bench/check.md"
mkdir -p "$(dirname "$out")"
runs="$(mktemp)"
trap 'rm -f "$runs"' EXIT

# The documented rows: "target|frame|ratio", from the first bench table.
documented="$(awk -F'|' '
  /^<!-- bench:begin/ { inside = 1; next }
  /^<!-- bench:end -->/ || /^### / { inside = 0 }
  inside && NF >= 7 && $6 ~ /[0-9]/ {
    t = $2; f = $3; r = $6
    gsub(/^ +| +$/, "", t); gsub(/^ +| +$/, "", f); gsub(/ /, "", r)
    print t "|" f "|" r
  }' "$doc")"
[ -n "$documented" ] || { echo "error: no ratio rows between the bench markers of docs/benchmarks.md" >&2; exit 2; }

for target in "${targets[@]}"; do
  [ -f "$here/$target/bench.sh" ] || { echo "error: no tests/conformance/$target/bench.sh" >&2; exit 2; }
  for pass in $(seq "$passes"); do
    echo "bench-check: $target, pass $pass of $passes" >&2
    bash "$here/$target/bench.sh" 2>/dev/null | grep -E "^\| $target \|" | awk -F'|' -v pass="$pass" '{
      t = $2; f = $3; r = $6
      gsub(/^ +| +$/, "", t); gsub(/^ +| +$/, "", f); gsub(/ /, "", r)
      print t "|" f "|" pass "|" r
    }' >>"$runs"
  done
done

status=0
{
  echo "| target | frame | passes (plain/strict) | best | documented | |"
  echo "|---|---|---|---:|---:|---|"
  while IFS='|' read -r target frame; do
    ratios="$(awk -F'|' -v t="$target" -v f="$frame" '$1 == t && $2 == f { printf "%s%s", (n++ ? ", " : ""), $4 }' "$runs")"
    best="$(awk -F'|' -v t="$target" -v f="$frame" '$1 == t && $2 == f && (b == "" || $4 + 0 < b + 0) { b = $4 } END { print b }' "$runs")"
    doc_ratio="$(awk -F'|' -v t="$target" -v f="$frame" '$1 == t && $2 == f { print $3; exit }' <<<"$documented")"
    mark="ok"
    if [ -z "$doc_ratio" ]; then
      mark="not documented"
    elif awk -v b="$best" -v d="$doc_ratio" 'BEGIN { exit !(b + 0 > d + 0) }'; then
      mark="OVER"
      status=1
    fi
    echo "| $target | $frame | $ratios | $best | ${doc_ratio:--} | $mark |"
  done < <(awk -F'|' '!seen[$1 "|" $2]++ { print $1 "|" $2 }' "$runs")
} >"$out"
cat "$out"
echo "bench-check: written to ${out#"$root"/}" >&2
exit "$status"

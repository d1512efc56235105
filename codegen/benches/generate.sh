#!/usr/bin/env bash
# Whole-process generation time, warm: `cargo run -p codegen` writing all six
# targets (release binary, fresh output directory each run) next to quicktype
# 26 (npm, pinned by the lockfile beside this script) generating the five
# non-Rust languages from the same schema, in one run.
#
#   bash codegen/benches/generate.sh [RUNS]
#
# Prints a markdown table for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-20}"
schema=schemas/ipc/v2.json
qt_dir=codegen/benches/quicktype
(cd "$qt_dir" && npm ci --no-audit --no-fund --silent >/dev/null)
quicktype="$qt_dir/node_modules/.bin/quicktype"
cargo build -q --release -p codegen
codegen=target/release/codegen
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

now_ms() { date +%s%N | awk '{printf "%.1f", $1 / 1e6}'; }
# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

time_runs() { # command... ; prints the median wall time in ms over $runs runs (after one warm-up)
  "$@" >/dev/null 2>&1
  for _ in $(seq "$runs"); do
    local start end
    start=$(now_ms)
    "$@" >/dev/null 2>&1
    end=$(now_ms)
    awk -v s="$start" -v e="$end" 'BEGIN {printf "%.1f\n", e - s}'
  done | median
}

run_codegen() { local out; out=$(mktemp -d "$scratch/cg.XXXX"); "$codegen" --schema "$schema" --out "$out"; }
ours=$(time_runs run_codegen)

qt_runs=$(( runs < 5 ? runs : 5 ))
total=0
rows=""
for lang in python typescript go java csharp; do
  ms=$(runs=$qt_runs time_runs "$quicktype" -s schema "$schema#/\$defs/" -l "$lang" -o "$scratch/qt.$lang")
  total=$(awk -v a="$total" -v b="$ms" 'BEGIN {printf "%.1f", a + b}')
  rows+="| quicktype 26.0.0, $lang only | $ms ms |"$'\n'
done
echo "| generator | median wall time |"
echo "|---|---|"
echo "| \`codegen\` (release), all six targets + lock file | $ours ms |"
printf "%s" "$rows"
echo "| quicktype, the five languages together | $total ms |"
echo
awk -v q="$total" -v o="$ours" 'BEGIN {printf "quicktype / codegen: %.0fx (codegen over %d runs, quicktype over %d runs per language)\n", q / o, '"$runs"', '"$qt_runs"'}'

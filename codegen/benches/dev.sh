#!/usr/bin/env bash
# The dev-profile `codegen` binary, warm, wall clock: what `cargo run -p codegen`
# runs (after cargo's own up-to-date check). Generating all six targets into a
# fresh directory and into an up-to-date copy of generated/, `--check` against
# the committed generated/, and
# `diff --against HEAD`; the release binary beside it for scale.
#
#   bash codegen/benches/dev.sh [RUNS]
#
# Prints a markdown table for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-21}"
cargo build -q -p codegen
cargo build -q --release -p codegen
target="${CARGO_TARGET_DIR:-target}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

now_ns() { date +%s%N; }
# median and fastest of the numbers on stdin
stats() { sort -n | awk '{a[NR]=$1} END {m=(NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.1f ms | %.1f ms", m, a[1]}'; }

time_runs() { # command... ; after one warm-up run
  "$@" >/dev/null 2>&1 || true
  for _ in $(seq "$runs"); do
    local start end
    start=$(now_ns)
    "$@" >/dev/null 2>&1 || true
    end=$(now_ns)
    awk -v s="$start" -v e="$end" 'BEGIN {printf "%.1f\n", (e - s) / 1e6}'
  done | stats
}

# A new output directory per run, which codegen makes; named by a counter,
# not by `mktemp`, a process of its own that the timing would count.
fresh=0
generate() { fresh=$((fresh + 1)); "$1" --out "$scratch/fresh-$profile-$fresh"; }
# An up-to-date copy of generated/: what `cargo run -p codegen` does after an
# edit that changes nothing generated (every file compared, none written).
in_place() { "$1" --out "$scratch/in-place"; }

echo "| binary | command | median | fastest |"
echo "|---|---|---|---|"
for profile in debug release; do
  bin="$target/$profile/codegen"
  echo "| $profile | generate, fresh directory | $(time_runs generate "$bin") |"
  rm -rf "$scratch/in-place" && cp -r generated "$scratch/in-place"
  echo "| $profile | generate, up to date | $(time_runs in_place "$bin") |"
  echo "| $profile | \`--check\` | $(time_runs "$bin" --check) |"
  echo "| $profile | \`diff --against HEAD\` | $(time_runs "$bin" diff --against HEAD) |"
done
echo
echo "($runs runs each after a warm-up; load average $(cut -d' ' -f1-3 /proc/loadavg))"

#!/usr/bin/env bash
# A long differential-fuzzing campaign (issue 17, part 2): random and mutated
# frames of every `$defs` type through the six testees, the library and the
# validator, in slices of the conformance test `every_target_agrees_on_fuzzed_frames`.
#
#   tests/conformance/fuzz.sh [CASES] [SEED] [SLICE]
#
# CASES (default 100000) cases of campaign SEED (default: the date) are run
# in slices of SLICE (default 20000) cases; each disagreement is minimized and
# appended to tests/conformance/corpus/fuzz-findings.jsonl, carrying the
# validator's verdict, where the conformance test then holds every target to
# it. The summary line of each slice is printed; the exit status is 1 when a
# slice found a disagreement.
set -uo pipefail
cd "$(dirname "$0")/../.."
cases="${1:-100000}"
seed="${2:-$(date +%Y%m%d)}"
slice="${3:-20000}"
findings="$PWD/tests/conformance/corpus/fuzz-findings.jsonl"
status=0
start=$(date +%s)
for ((first = 0; first < cases; first += slice)); do
  count=$((cases - first < slice ? cases - first : slice))
  FUZZ_SEED="$seed" FUZZ_FIRST="$first" FUZZ_CASES="$count" FUZZ_FINDINGS="$findings" \
    cargo test -q --test conformance every_target_agrees_on_fuzzed_frames -- --nocapture 2>&1 |
    grep -E "^differential fuzzing|disagreements;|panicked|error" || true
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done
echo "seed $seed: $cases cases in $(($(date +%s) - start)) s; findings (if any) in $findings"
exit "$status"

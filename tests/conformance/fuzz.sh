#!/usr/bin/env bash
# A long differential-fuzzing campaign (issue 17, part 2): random and mutated
# frames through the six testees (and, for v2's types, the library) with the
# jsonschema validator as the reference, in slices of two tests:
# `every_target_agrees_on_fuzzed_frames` (v2's `$defs`, tests/conformance/proof.rs)
# and `every_target_agrees_on_fuzzed_constrained_frames` (the constrained
# golden types and the JSON Schema Test Suite's groups, tests/constraints/fuzz.rs).
#
#   tests/conformance/fuzz.sh [CASES] [SEED] [SLICE]
#
# CASES (default 100000) cases of campaign SEED (default: the date) are run
# for each contract in slices of SLICE (default 20000) cases. Each
# disagreement is minimized and appended, carrying the validator's verdict,
# to tests/conformance/corpus/fuzz-findings.jsonl (v2: the conformance test
# then holds every target to it) or tests/constraints/fuzz-findings.jsonl
# (the constraints test rechecks it first). Each slice prints its summary;
# the exit status is 1 when a slice found a disagreement.
set -uo pipefail
cd "$(dirname "$0")/../.."
cases="${1:-100000}"
seed="${2:-$(date +%Y%m%d)}"
slice="${3:-20000}"
export FUZZ_FINDINGS="$PWD/tests/conformance/corpus/fuzz-findings.jsonl"
export FUZZ_CONSTRAINED_FINDINGS="$PWD/tests/constraints/fuzz-findings.jsonl"
status=0
start=$(date +%s)
for test in "conformance conformance::every_target_agrees_on_fuzzed_frames" "conformance constraints::fuzz::every_target_agrees_on_fuzzed_constrained_frames"; do
  set -- $test
  for ((first = 0; first < cases; first += slice)); do
    count=$((cases - first < slice ? cases - first : slice))
    FUZZ_SEED="$seed" FUZZ_FIRST="$first" FUZZ_CASES="$count" \
      cargo test -q --test "$1" "$2" -- --nocapture 2>&1 |
      grep -E "^differential fuzzing|disagreements;|panicked|error" || true
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
  done
done
echo "seed $seed: $cases cases per contract in $(($(date +%s) - start)) s; findings (if any) in $FUZZ_FINDINGS and $FUZZ_CONSTRAINED_FINDINGS"
exit "$status"

#!/usr/bin/env bash
# Prepares the Python client testee: python3 >= 3.10, and the generated client
# under <OUTPUT_ROOT>/python/mcptest/ (default: generated). The strict checks
# of the client and of this testee run in tests/conformance/python/build.sh.
# With CLIENT_RENAMED (the renamed contract's tree, tests/client_conformance/
# renamed.rs) its client and rewritten testee are compiled in the same run,
# for `run.sh renamed`.
# python-poll/build.sh is this script too.
# Exit 0 when ready, 3 (1 when CI=true) when no toolchain.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-${OUTPUT_ROOT:-generated}}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
state="$root/target/client_conformance/python"
mkdir -p "$state"
# python-poll builds through this script beside python (tests/client_conformance.rs
# runs the languages at once): one build at a time, each state file replaced
# whole, so that a run.sh reading one never sees it half written.
exec 9>"$state/.build.lock"
flock 9
put() { printf '%s\n' "$2" >"$state/$1.new" && mv "$state/$1.new" "$state/$1"; }

# missing
. "$root/tests/toolchain.sh"

python=""
for candidate in python3 python3.13 python3.12 python3.11 python3.10; do
  if command -v "$candidate" >/dev/null 2>&1 &&
    "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
    python="$(command -v "$candidate")"
    break
  fi
done
[ -n "$python" ] || missing "python3 >= 3.10"
[ -f "$out/python/mcptest/_client.py" ] || { echo "no $out/python/mcptest/_client.py (cargo run -p codegen)" >&2; exit 1; }
sources=("$out/python/mcptest/_client.py" "$here/testee.py")
renamed="${CLIENT_RENAMED:-}"
if [ -n "$renamed" ]; then
  sources+=("$renamed/generated/python/mcptest/_client.py" "$renamed/tests/client_conformance/python/testee.py")
fi
"$python" -c 'import sys; [compile(open(p, encoding="utf-8").read(), p, "exec") for p in sys.argv[1:]]' "${sources[@]}"
put python "$python"
put output_root "$out"
put renamed "$renamed"

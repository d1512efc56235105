#!/usr/bin/env bash
# Checks that Python files are exactly what the pinned ruff (tools.sh) prints
# with `ruff format` and its defaults (line length 88, Python 3.10).
#   tests/conformance/python/format-check.sh FILE...
# Exit 0 when every file is ruff's output; 1 with a unified diff of what ruff
# would change in each file that is not; 3 (1 when CI=true) when no python or
# ruff can be had. Installs the pinned toolchain when missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# python, mypy, ruff (pinned versions); missing
. "$here/tools.sh"

status=0
for file in "$@"; do
  # --isolated: ruff's defaults, whatever configuration sits around the file.
  if ! "$ruff" format --isolated --quiet --no-cache --target-version py310 --diff "$file" >&2; then
    echo "error: $file is not what ruff format prints (diff above)" >&2
    status=1
  fi
done
exit "$status"

#!/usr/bin/env bash
# Builds (checks) the Python end-to-end client: the toolchain is the one
# tests/conformance/python/build.sh installs (python3 >= 3.10, pinned ruff and
# mypy in target/toolchains/py-venv); that script is run only when its
# toolchain is not there yet. Then ruff and mypy --strict check client.py
# against the generated module. Exit 0 ok, 1 failed, 3 toolchain missing
# (1 with CI=true), like the conformance build scripts.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
venv="$root/target/toolchains/py-venv"
state="$root/target/conformance/python"
out="$root/target/e2e/python"
mkdir -p "$out"

if [ ! -x "$venv/bin/ruff" ] || [ ! -x "$venv/bin/mypy" ] || [ ! -s "$state/python" ]; then
  CONFORMANCE_TOOLCHAIN_ONLY=1 bash "$root/tests/conformance/python/build.sh" generated # exits 3 (or 1 in CI) when no toolchain
fi
python="$(cat "$state/python")"

export RUFF_CACHE_DIR="$out/ruff-cache"
"$venv/bin/ruff" format --check --quiet --line-length 120 --target-version py310 "$here/client.py"
"$venv/bin/ruff" check --quiet --line-length 120 --target-version py310 --select E,F,W,B,I,C4,SIM,RUF,PIE,RET "$here/client.py"
MYPYPATH="$root/generated/python" "$venv/bin/mypy" --strict --python-version 3.10 \
  --cache-dir "$out/mypy-cache" --no-error-summary "$here/client.py"
echo "$python" >"$out/python"
echo "python: e2e client checked" >&2

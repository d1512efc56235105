#!/usr/bin/env bash
# Builds the Python conformance testee and runs the strict checks.
#
#   tests/conformance/python/build.sh [OUTPUT_ROOT]     (default: generated)
#
# (a) finds python3 >= 3.10 (apt-installs it on a bare Debian when run as root)
#     and pinned mypy + ruff (on PATH at the pinned version, else a venv under
#     target/toolchains/py-venv), and pinned pyright (npm ci); (b) runs `ruff
#     format --check`, `ruff check`, `mypy --strict` and pyright in strict mode
#     (Python 3.10 semantics) on <OUTPUT_ROOT>/python/mcptest/
#     _coprocess.py, on every golden copy under codegen/tests/golden/*/ and on the
#     testee; (c) byte-compiles the testee and records OUTPUT_ROOT for run.sh.
# Exit 0 on success, 1 on a failed check, 3 (1 when CI=true) when no toolchain.
set -euo pipefail

MYPY_VERSION=1.13.0
RUFF_VERSION=0.7.4
RUFF_RULES=E,F,W,B,I,C4,SIM,RUF,PIE,RET,PL,UP
RUFF_IGNORE=E501,PLR2004,PLR0911,PLR0912,PLR0913,PLR0915

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-${OUTPUT_ROOT:-generated}}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
module="python/mcptest/_coprocess.py"
venv="$root/target/toolchains/py-venv"
state="${CONFORMANCE_BUILD:-$root/target/conformance/python}"
mkdir -p "$state"

# missing, apt_install
. "$(dirname "${BASH_SOURCE[0]}")/../../toolchain.sh"

python_ok() {
  "$1" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null
}

find_python() {
  local candidate
  for candidate in python3 python3.13 python3.12 python3.11 python3.10; do
    if command -v "$candidate" >/dev/null 2>&1 && python_ok "$(command -v "$candidate")"; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

python="$(find_python || true)"
if [ -z "$python" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing python3 and python3-venv with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >&2 || true
  python="$(find_python || true)"
fi
[ -n "$python" ] || missing "python3 >= 3.10 with venv (apt-get install python3 python3-venv)"

# mypy and ruff: the pinned versions already on PATH, else the venv.
tool_at_version() {
  command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -q " $2\b"
}
if tool_at_version mypy "$MYPY_VERSION" && tool_at_version ruff "$RUFF_VERSION"; then
  mypy="$(command -v mypy)"
  ruff="$(command -v ruff)"
else
  stamp="$venv/.pinned"
  want="mypy==$MYPY_VERSION ruff==$RUFF_VERSION"
  # A venv whose scripts cannot run (the checkout moved: their shebangs name
  # the old path) is rebuilt, not trusted.
  if ! "$venv/bin/mypy" --version >/dev/null 2>&1 || [ ! -x "$venv/bin/ruff" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "installing $want into ${venv#"$root/"}" >&2
    "$python" -m venv --clear "$venv" >&2 || missing "python3 -m venv failed (apt-get install python3-venv)"
    # shellcheck disable=SC2086
    "$venv/bin/python" -m pip install -q --disable-pip-version-check $want >&2 \
      || missing "pip could not install $want from PyPI"
    echo "$want" >"$stamp"
  fi
  mypy="$venv/bin/mypy"
  ruff="$venv/bin/ruff"
fi

# pyright from npm: node and npm on PATH (the machine's, as for the TypeScript checks).
command -v npm >/dev/null 2>&1 || missing "node and npm (for pyright)"
pyright="$here/node_modules/.bin/pyright"
if [ ! -x "$pyright" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >&2) || missing "pyright from the npm registry (npm ci failed)"
fi

if [ ! -f "$out/$module" ]; then
  echo "generating $out (cargo run -q -p codegen -- --out $out)" >&2
  (cd "$root" && cargo run -q -p codegen -- --out "$out" >/dev/null)
fi

files=("$out/$module")
for golden in "$root"/codegen/tests/golden/*/"$module"; do
  [ -f "$golden" ] && files+=("$golden")
done

if checked_before "$state/.checked" "${files[@]}" "$here/testee.py"; then
  echo "$out" >"$state/output_root"
  echo "$python" >"$state/python"
  echo "python: ${#files[@]} generated file(s) unchanged since they passed; testee ready" >&2
  exit 0
fi

export RUFF_CACHE_DIR="$state/ruff-cache"
status=0
# The `long` golden (names and descriptions past every width) is not yet
# what ruff format prints: the Python target does not lay out over-wide
# statements as ruff does (issue 13). Every other check runs on it; this one
# says so, loudly, instead of skipping it in silence.
formatted=()
for file in "${files[@]}"; do
  case "$file" in
    */codegen/tests/golden/long/*) echo "python: NOT CHECKED: ruff format on $file (issue 13: Python long-line layout)" >&2 ;;
    *) formatted+=("$file") ;;
  esac
done
"$ruff" format --check --quiet --target-version py310 "${formatted[@]}" "$here/testee.py" || status=1
"$ruff" check --quiet --target-version py310 --select "$RUFF_RULES" --ignore "$RUFF_IGNORE" "${files[@]}" "$here/testee.py" || status=1
for file in "${files[@]}"; do
  "$mypy" --strict --python-version 3.10 --cache-dir "$state/mypy-cache" --no-error-summary "$file" || status=1
done
MYPYPATH="$out/python" "$mypy" --strict --python-version 3.10 --cache-dir "$state/mypy-cache" \
  --no-error-summary "$here/testee.py" || status=1
# pyright in strict mode, the checker the MCP Python SDK runs (pinned by
# package-lock.json beside this script, from the npm registry).
printf '{"typeCheckingMode": "strict", "pythonVersion": "3.10"}\n' >"$state/pyrightconfig.json"
"$pyright" --project "$state/pyrightconfig.json" "${files[@]}" >"$state/pyright.log" 2>&1 ||
  { cat "$state/pyright.log" >&2; status=1; }
if [ "$status" != 0 ]; then
  echo "python: strict checks failed" >&2
  exit 1
fi

# "Build": byte-compile the module and the testee (syntax under the real
# interpreter), and record which output root run.sh imports from.
"$python" - "$out/$module" "$here/testee.py" <<'PY'
import sys
for path in sys.argv[1:]:
    source = open(path, encoding="utf-8").read()
    compile(source, path, "exec")
PY
echo "$out" >"$state/output_root"
echo "$python" >"$state/python"
mark_checked "$state/.checked" "${files[@]}" "$here/testee.py"
echo "python: checks passed on ${#files[@]} generated file(s); testee ready" >&2

#!/usr/bin/env bash
# Builds the Python conformance testee and runs the strict checks.
#
#   tests/conformance/python/build.sh [OUTPUT_ROOT]     (default: generated)
#
# (a) finds python3 >= 3.10 (apt-installs it on a bare Debian when run as root)
#     and pinned mypy + ruff (tools.sh: on PATH at the pinned version, else a
#     venv under target/toolchains/py-venv), and pinned pyright (npm ci); (b)
#     runs `ruff format --check` (format-check.sh), `ruff check` (this
#     project's rules, then the MCP Python SDK's: mcp-ruff.toml), `mypy
#     --strict` and pyright in strict mode (Python 3.10 semantics) on
#     <OUTPUT_ROOT>/python/mcptest/_coprocess.py, on every golden copy under
#     codegen/tests/golden/*/ and on the testee; the formatter, both ruff
#     checks and mypy also on runtime.py itself; (c) byte-compiles the testee
#     and records OUTPUT_ROOT for run.sh. The session client, _client.py beside
#     the module (in OUTPUT_ROOT and every golden), and the client conformance
#     testee get the same checks. Its runtime client_runtime.py is written with
#     the role placeholders (`_coprocess.RoleErrorResponse`,
#     `role_response_from_value`), which no module declares until the emitter
#     fills them with the contract's names, and filling them changes line
#     lengths: it gets both ruff checks, and is type-checked and format-checked
#     as rendered, inside every _client.py.
# Exit 0 on success, 1 on a failed check, 3 (1 when CI=true) when no toolchain.
set -euo pipefail

RUFF_RULES=E,F,W,B,I,C4,SIM,RUF,PIE,RET,PL,UP
RUFF_IGNORE=PLR2004,PLR0911,PLR0912,PLR0913,PLR0915

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# The goldens checked beside OUTPUT_ROOT (the proof round points this at a
# folder linking every golden and generated/, so one run of each tool covers them).
GOLDENS="${CONFORMANCE_GOLDENS:-$root/codegen/tests/golden}"
out="${1:-${OUTPUT_ROOT:-generated}}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
module="python/mcptest/_coprocess.py"
runtime="$root/codegen/src/targets/python/runtime.py"
state="${CONFORMANCE_BUILD:-$root/target/conformance/python}"
mkdir -p "$state"

# python, mypy, ruff (pinned versions); missing, apt_install
. "$here/tools.sh"

# pyright from npm: node and npm on PATH (the machine's, as for the TypeScript checks).
command -v npm >/dev/null 2>&1 || missing "node and npm (for pyright)"
pyright="$here/node_modules/.bin/pyright"
if [ ! -x "$pyright" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >&2) || missing "pyright from the npm registry (npm ci failed)"
fi
# CONFORMANCE_TOOLCHAIN_ONLY=1 (the client and e2e builds): the tools and
# the interpreter's path in $state/python only, no check (the proof round
# checks generated/ and every golden, the clients among them).
if [ -n "${CONFORMANCE_TOOLCHAIN_ONLY:-}" ]; then
  echo "$python" >"$state/python"
  echo "python: toolchain ready" >&2
  exit 0
fi

if [ ! -f "$out/$module" ]; then
  echo "generating $out (cargo run -q -p codegen -- --out $out)" >&2
  (cd "$root" && cargo run -q -p codegen -- --out "$out" >/dev/null)
fi

files=("$out/$module")
for golden in "$GOLDENS"/*/"$module"; do
  [ -f "$golden" ] && files+=("$golden")
done

# The session client: <root>/python/mcptest/_client.py next to each module.
client_runtime="$root/codegen/src/targets/python/client_runtime.py"
client_testee="$root/tests/client_conformance/python/testee.py"
clients=()
for file in "${files[@]}"; do
  client="$(dirname "$file")/_client.py"
  [ -f "$client" ] || { echo "python: no $client beside $file" >&2; exit 1; }
  clients+=("$client")
done

checked=("${files[@]}" "${clients[@]}" "$client_runtime" "$client_testee" "$here/testee.py" "$runtime" "$here/tools.sh" "$here/format-check.sh" "$here/mcp-ruff.toml")
if checked_before "$state/.checked" "${checked[@]}"; then
  echo "$out" >"$state/output_root"
  echo "$python" >"$state/python"
  echo "python: ${#files[@]} generated file(s) unchanged since they passed; testee ready" >&2
  exit 0
fi

export RUFF_CACHE_DIR="$state/ruff-cache"
status=0
# runtime.py is the middle of the generated module: checked on its own behind
# the module's imports and the one constant it takes from the module's head.
runtime_module="$state/runtime_module.py"
{
  printf '%s\n' "from __future__ import annotations" "" "import builtins" "import collections.abc" \
    "import enum" "import json" "import math" "import re" "import typing" "from dataclasses import dataclass" "" \
    "MAX_DEPTH: typing.Final = 64" ""
  cat "$runtime"
} >"$runtime_module"
# Exactly what ruff format prints (its diff otherwise), on every file.
bash "$here/format-check.sh" "${files[@]}" "$runtime" "$here/testee.py" \
  "${clients[@]}" "$client_testee" || status=1
"$ruff" check --quiet --target-version py310 --line-length 120 --select "$RUFF_RULES" --ignore "$RUFF_IGNORE" \
  "${files[@]}" "$here/testee.py" "${clients[@]}" "$client_runtime" "$client_testee" || status=1
# The MCP Python SDK's own ruff configuration (mcp-ruff.toml), every finding,
# on what this repository ships: the committed file, every golden and the
# runtime (not on another OUTPUT_ROOT's file: a schema of objects with dozens
# of optional members, like the names proof's, exceeds that configuration's
# complexity limits, C901/PLR0912/PLR0915, by design of the readers).
shipped=("${files[@]:1}" "$runtime_module" "${clients[@]:1}" "$client_runtime")
# generated/ too, once (the proof round lists it among the goldens).
for file in "$root/generated/$module" "$root/generated/python/mcptest/_client.py"; do
  [ -f "$file" ] || continue
  for listed in "${shipped[@]}"; do [ "$(realpath "$listed")" = "$(realpath "$file")" ] && continue 2; done
  shipped+=("$file")
done
"$ruff" check --quiet --no-cache --config "$here/mcp-ruff.toml" "${shipped[@]}" || status=1
mypy_strict=("$mypy" --strict --python-version 3.10 --no-error-summary)
"${mypy_strict[@]}" --cache-dir "$state/mypy-cache" "$runtime_module" || status=1
# Each output root in one run: its module and its client as the package
# modules they are (mcptest._coprocess, mcptest._client: MYPYPATH is the
# package base), so that the module is checked once for the client and, in
# OUTPUT_ROOT, for the testee, which imports it too. Then the client testee
# against OUTPUT_ROOT's module, from the same cache (a second testee.py
# cannot join the first run: two modules named `testee`).
n=0
for file in "${files[@]}"; do
  python_root="$(dirname "$(dirname "$file")")"
  testee=()
  [ "$n" = 0 ] && testee=("$here/testee.py")
  MYPYPATH="$python_root" "${mypy_strict[@]}" --explicit-package-bases --cache-dir "$state/mypy-cache-$n" \
    "$file" "$python_root/mcptest/_client.py" "${testee[@]}" || status=1
  n=$((n + 1))
done
MYPYPATH="$out/python" "${mypy_strict[@]}" --explicit-package-bases --cache-dir "$state/mypy-cache-0" \
  "$client_testee" || status=1
# pyright in strict mode, the checker the MCP Python SDK runs (pinned by
# package-lock.json beside this script, from the npm registry): every module
# and client in one run, each output root an execution environment of its
# own, so that each client resolves `mcptest._coprocess` in its own root.
environments=""
for file in "${files[@]}"; do
  environments+="${environments:+, }{\"root\": \"$(dirname "$(dirname "$file")")\"}"
done
printf '{"typeCheckingMode": "strict", "pythonVersion": "3.10", "executionEnvironments": [%s]}\n' "$environments" \
  >"$state/pyrightconfig.json"
# A larger young generation for node: fewer scavenges of pyright's heap (on
# the names proof's output, 102 -> 86 s of CPU).
NODE_OPTIONS="${NODE_OPTIONS:-} --max-semi-space-size=64" "$pyright" --project "$state/pyrightconfig.json" "${files[@]}" "${clients[@]}" >"$state/pyright.log" 2>&1 ||
  { cat "$state/pyright.log" >&2; status=1; }
if [ "$status" != 0 ]; then
  echo "python: strict checks failed" >&2
  exit 1
fi

# "Build": byte-compile the module and the testee (syntax under the real
# interpreter), and record which output root run.sh imports from.
"$python" - "$out/$module" "$here/testee.py" "$out/python/mcptest/_client.py" "$client_testee" <<'PY'
import sys
for path in sys.argv[1:]:
    source = open(path, encoding="utf-8").read()
    compile(source, path, "exec")
PY
echo "$out" >"$state/output_root"
echo "$python" >"$state/python"
mark_checked "$state/.checked" "${checked[@]}"
echo "python: checks passed on ${#files[@]} generated file(s); testee ready" >&2

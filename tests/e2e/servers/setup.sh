#!/usr/bin/env bash
# Installs the two real MCP servers the mcptest binary is tested against.
#
#   tests/e2e/servers/setup.sh
#
# (a) node >= 18 and npm (PATH, else Debian's packages via apt-get when root),
#     then `npm ci` in tests/e2e/servers/everything/ (package-lock.json pins
#     @modelcontextprotocol/server-everything, the legacy-era server);
# (b) python3 >= 3.10 with venv (PATH, else apt-get), then a venv at
#     target/toolchains/mcp-venv with PyPI `mcp` 2.x pinned by
#     tests/e2e/servers/python/requirements.txt (the dual-era server.py).
# Idempotent: a finished install is recognised by a stamp and skipped.
# Exit 0 ok; when something cannot be installed: 1 with CI=true, else
# `TOOLCHAIN MISSING: ...` on stderr and exit 3.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
venv="$root/target/toolchains/mcp-venv"

# missing, apt_install
. "$(dirname "${BASH_SOURCE[0]}")/../../toolchain.sh"


# (a) server-everything
have_node() {
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 \
    && [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -ge 18 ]
}
have_node || apt_install nodejs npm || true
have_node || missing "node >= 18 and npm (apt-get install nodejs npm)"
everything="$here/everything"
stamp="$everything/node_modules/.mcptest-installed"
if [ ! -f "$stamp" ] || [ "$everything/package-lock.json" -nt "$stamp" ]; then
  echo "installing @modelcontextprotocol/server-everything (npm ci)" >&2
  (cd "$everything" && npm ci --no-audit --no-fund --loglevel=error >&2) \
    || missing "npm ci could not install @modelcontextprotocol/server-everything"
  touch "$stamp"
fi

# (b) the python server's venv
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
[ -n "$python" ] || { apt_install python3 python3-venv || true; python="$(find_python || true)"; }
[ -n "$python" ] || missing "python3 >= 3.10 with venv (apt-get install python3 python3-venv)"
requirements="$here/python/requirements.txt"
stamp="$venv/.mcptest-requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$stamp"; then
  echo "installing $(grep -v '^#' "$requirements" | tr '\n' ' ')into ${venv#"$root/"}" >&2
  "$python" -m venv "$venv" >&2 || missing "python3 -m venv failed (apt-get install python3-venv)"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements" >&2 \
    || missing "pip could not install the pinned PyPI mcp 2.x"
  cp "$requirements" "$stamp"
fi
"$venv/bin/python" -c 'from mcp.server.mcpserver import MCPServer' 2>/dev/null \
  || missing "the venv at ${venv#"$root/"} has no mcp.server.mcpserver (PyPI mcp 2.x)"
echo "servers ready: server-everything (node $(node --version)), python mcp server ($("$venv/bin/python" --version))" >&2

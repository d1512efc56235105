#!/usr/bin/env bash
# Runs the .NET client testee (see Testee.cs); build.sh first. `run.sh
# renamed`: the renamed contract's (build.sh with CLIENT_RENAMED).
#
# The fake coprocess is a Python script started through its `#!/usr/bin/env
# python3` line: where python3 on PATH is a version manager's shim (pyenv),
# each start pays for the shim, so the interpreter's own folder goes first on
# PATH (as tests/client_conformance/go/run.sh explains).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/client_conformance/dotnet"
dll="$state/testee${1:+-$1}.dll"
[ -f "$dll" ] || { echo "error: run tests/client_conformance/dotnet/build.sh first" >&2; exit 1; }
if python="$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)" && [ -n "$python" ]; then
  export PATH="$(dirname "$python"):$PATH"
fi
# shellcheck source=/dev/null
. "$state/env.sh"
exec "$DOTNET" "$dll"

#!/usr/bin/env bash
# Runs the Go client testee (see main.go); build.sh first. `run.sh renamed`:
# the renamed contract's (build.sh with CLIENT_RENAMED).
#
# The fake coprocess is a Python script started through its `#!/usr/bin/env
# python3` line. Where python3 on PATH is a version manager's shim (pyenv),
# each start pays for the shim (150 ms and more on a loaded machine), which a
# Python testee never does (the shim puts the interpreter's folder first on
# PATH for it and its children); the scenarios with a 200-300 ms timeout then
# time out in the handshake. The interpreter's own folder goes first here too.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
if python="$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)" && [ -n "$python" ]; then
  export PATH="$(dirname "$python"):$PATH"
fi
exec "$root/target/client_conformance/go/testee${1:+-$1}"

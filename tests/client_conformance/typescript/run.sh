#!/usr/bin/env bash
# Runs the TypeScript client testee (see testee.ts); build.sh first.
# `run.sh renamed`: the renamed contract's (build.sh with CLIENT_RENAMED).
#
# The fake coprocess is a Python script started through its `#!/usr/bin/env
# python3` line: where python3 on PATH is a version manager's shim (pyenv),
# each start pays for the shim (150 ms and more on a loaded machine), and the
# scenarios with a 200-300 ms timeout then time out in the handshake. The
# interpreter's own folder goes first on PATH, as a Python testee has it (see
# tests/client_conformance/go/run.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
if python="$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)" && [ -n "$python" ]; then
  export PATH="$(dirname "$python"):$PATH"
fi
exec node "$root/target/client_conformance/typescript/dist/${1:+$1/}testee.js"

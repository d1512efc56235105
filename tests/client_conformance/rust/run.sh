#!/usr/bin/env bash
# Runs the Rust client testee (see src/main.rs); build.sh first. `run.sh
# renamed`: the renamed contract's (build.sh with CLIENT_RENAMED).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# The fake coprocess is a python3 script: put the interpreter's own directory
# first on PATH, so that its `#!/usr/bin/env python3` does not go through a
# version manager's shims on every start (as the Python testee's does not).
if python="$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)" && [ -n "$python" ]; then
  export PATH="$(dirname "$python"):$PATH"
fi
exec "$root/target/conformance-rust/debug/client_testee${1:+_$1}"

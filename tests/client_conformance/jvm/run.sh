#!/usr/bin/env bash
# Runs the JVM client testee (see Testee.java); build.sh first. `run.sh
# renamed`: the renamed contract's (build.sh with CLIENT_RENAMED). The flags
# favour start-up time (client compiler, serial GC, class-data sharing).
# The fake coprocess starts through its `#!/usr/bin/env python3` line: where
# python3 on PATH is a version manager's shim (pyenv), each start pays for the
# shim (150 ms and more on a loaded machine), which a Python testee never does,
# and the scenarios with a 200-300 ms timeout then time out in the handshake.
# The interpreter's own folder goes first on PATH, as for the Go testee.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/client_conformance/jvm"
if python="$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)" && [ -n "$python" ]; then
  export PATH="$(dirname "$python"):$PATH"
fi
exec "$(cat "$state/java")" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
  -cp "$state/classes:$root/target/toolchains/jvm-lib/*" "${1:+$1.}Testee"

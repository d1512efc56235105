#!/usr/bin/env bash
# Runs the TypeScript client testee (see testee.ts); build.sh first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
exec node "$root/target/client_conformance/typescript/dist/testee.js"

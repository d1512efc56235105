#!/usr/bin/env bash
# Runs the TypeScript end-to-end client (see tests/e2e.rs for its environment).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
exec node "$root/target/e2e/typescript/dist/client.js"

#!/usr/bin/env bash
# Runs the Go end-to-end client (see tests/e2e.rs for its environment).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
exec "$root/target/e2e/go/client"

#!/usr/bin/env bash
# Runs the built TypeScript testee: NDJSON cases on stdin, answers on stdout.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
exec node "${CONFORMANCE_BUILD:-$root/target/conformance/typescript}/dist/testee.js"

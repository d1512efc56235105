#!/usr/bin/env bash
# Runs the Python client testee with its reads polled (see build.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CLIENT_PYTHON_WAIT=poll exec bash "$here/../python/run.sh" "$@"

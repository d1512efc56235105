#!/usr/bin/env bash
# The Python client again, waiting as it does where a read cannot be ended
# through the pipe's path (no Linux /proc): each read of a spawned
# coprocess's stdout polled first, instead of the watchdog that ends a
# blocking read. The testee and its build are Python's (../python/build.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../python/build.sh" "$@"

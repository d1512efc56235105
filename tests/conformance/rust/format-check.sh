#!/usr/bin/env bash
# Checks that Rust files are exactly what stable rustfmt prints with its
# default configuration and `--edition 2021` (the output was made to match
# rustfmt 1.9; see docs/targets.md, "Formatting").
#   tests/conformance/rust/format-check.sh FILE...
# Exit 0 when every file is rustfmt's output; 1 with a unified diff of what
# rustfmt would change in each file that is not; 3 (1 when CI=true) when no
# rustfmt can be had (`rustup component add rustfmt`).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../../toolchain.sh"

command -v rustfmt >/dev/null 2>&1 || rustup component add rustfmt >&2 2>/dev/null || true
command -v rustfmt >/dev/null 2>&1 && rustfmt --version >/dev/null 2>&1 || missing "rustfmt (rustup component add rustfmt)"
version="$(rustfmt --version)"

# The default configuration whatever rustfmt.toml sits around the file: an
# empty config file, and the text on stdin (so no file's directory is searched).
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT
: >"$config/rustfmt.toml"

status=0
for file in "$@"; do
  prints_as rustfmt "$version" "$file" rustfmt --edition 2021 --config-path "$config/rustfmt.toml" --emit stdout || status=1
done
exit "$status"

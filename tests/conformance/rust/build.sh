#!/usr/bin/env bash
# Builds the Rust conformance testee and runs the strict checks.
#
#   tests/conformance/rust/build.sh
#
# (a) needs cargo with clippy (the repository's own toolchain; `rustup
#     component add clippy` when it is missing); (b) runs `cargo clippy
#     -D warnings` on the testee, which includes the generated SDK file
#     generated/rust/mcptest-runner/src/coprocess.rs, and on every golden copy
#     codegen/tests/golden/*/rust/mcptest-runner/src/coprocess.rs (through a
#     small crate written under target/conformance-rust/goldens); (c) builds
#     the testee (release) into target/conformance-rust.
# The Rust testee always checks generated/ (the file is included with #[path]).
# Exit 0 on success, 1 on a failed check, 3 (1 when CI=true) when no toolchain.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export CARGO_TARGET_DIR="$root/target/conformance-rust"

# missing, apt_install
. "$(dirname "${BASH_SOURCE[0]}")/../../toolchain.sh"

command -v cargo >/dev/null 2>&1 || missing "cargo (install Rust with rustup)"
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy >&2 2>/dev/null || true
cargo clippy --version >/dev/null 2>&1 || missing "cargo clippy (rustup component add clippy)"

lints=(-D warnings -D clippy::unwrap_used -D clippy::panic)
status=0
(cd "$here" && cargo clippy --quiet --locked --release --all-targets -- "${lints[@]}") || status=1

# The goldens: one module each in a throwaway crate sharing the lockfile.
goldens="$CARGO_TARGET_DIR/goldens"
mkdir -p "$goldens/src"
sed -e 's/^name = "conformance-testee-rust"/name = "conformance-goldens-rust"/' \
  -e "/^\[\[bin\]\]/,/^$/d" -e "/^\[lib\]/,/^$/d" "$here/Cargo.toml" >"$goldens/Cargo.toml"
cp "$here/Cargo.lock" "$goldens/Cargo.lock"
sed -i 's/^name = "conformance-testee-rust"/name = "conformance-goldens-rust"/' "$goldens/Cargo.lock"
{
  echo "//! Every golden copy of the generated Rust file, for clippy (written by build.sh)."
  n=0
  for golden in "$root"/codegen/tests/golden/*/rust/mcptest-runner/src/coprocess.rs; do
    [ -f "$golden" ] || continue
    echo "#[path = \"$golden\"]"
    echo "pub mod golden_$n;"
    n=$((n + 1))
  done
} >"$goldens/src/lib.rs.new"
cmp -s "$goldens/src/lib.rs.new" "$goldens/src/lib.rs" 2>/dev/null || mv "$goldens/src/lib.rs.new" "$goldens/src/lib.rs"
rm -f "$goldens/src/lib.rs.new"
(cd "$goldens" && cargo clippy --quiet --locked --release -- "${lints[@]}") || status=1

if [ "$status" != 0 ]; then
  echo "rust: clippy -D warnings failed" >&2
  exit 1
fi
(cd "$here" && cargo build --quiet --locked --release --bins) || exit 1
echo "rust: clippy passed on the generated file and the goldens; testee ready" >&2

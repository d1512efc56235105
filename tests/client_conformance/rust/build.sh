#!/usr/bin/env bash
# Builds the Rust client testee (and the benchmark): the generated
# generated/rust/mcptest-runner/src/{coprocess,client}.rs with #[path], checked
# with rustfmt and clippy -D warnings as tests/conformance/rust/build.sh checks
# the SDK files, built (unoptimized, linted by clippy in the same compile, as
# tests/conformance/rust/build.sh builds its testee) into
# target/conformance-rust, sharing the conformance testee's target directory;
# bench.sh builds the benchmark optimized. With CLIENT_RENAMED (the renamed
# contract's tree, tests/client_conformance/renamed.rs, which must be
# target/client_conformance/renamed) the bin client_testee_renamed is checked
# and built in the same cargo runs (`run.sh renamed`).
# Exit 0 when ready, 1 on a failed check, 3 (1 when CI=true) when no toolchain.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export CARGO_TARGET_DIR="$root/target/conformance-rust"

# missing
. "$root/tests/toolchain.sh"

command -v cargo >/dev/null 2>&1 || missing "cargo (install Rust with rustup)"
cargo clippy --version >/dev/null 2>&1 || missing "cargo clippy (rustup component add clippy)"
[ -f "$root/generated/rust/mcptest-runner/src/client.rs" ] || { echo "no generated/rust/mcptest-runner/src/client.rs (cargo run -p codegen)" >&2; exit 1; }

features=()
if [ -n "${CLIENT_RENAMED:-}" ]; then
  [ "$(cd "$CLIENT_RENAMED" && pwd)" = "$root/target/client_conformance/renamed" ] ||
    { echo "CLIENT_RENAMED must be $root/target/client_conformance/renamed (Cargo.toml names it)" >&2; exit 1; }
  features=(--features renamed)
fi
bash "$root/tests/conformance/rust/format-check.sh" "$here"/src/*.rs || { echo "rust client testee: rustfmt check failed" >&2; exit 1; }
lints=(-D warnings -D clippy::unwrap_used -D clippy::panic -D clippy::must_use_candidate -D clippy::missing_errors_doc)
clippy_driver="$(rustc --print sysroot)/bin/clippy-driver"
[ -x "$clippy_driver" ] || missing "clippy-driver (rustup component add clippy)"
clippy_args=""
for arg in "${lints[@]}"; do clippy_args+="${arg}__CLIPPY_HACKERY__"; done
(cd "$here" && RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS="$clippy_args" \
  cargo build --quiet --locked ${CLIENT_PROFILE:+--profile "$CLIENT_PROFILE"} --bins "${features[@]}") ||
  { echo "rust client testee: clippy -D warnings or the build failed" >&2; exit 1; }

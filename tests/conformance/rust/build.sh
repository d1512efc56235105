#!/usr/bin/env bash
# Builds the Rust conformance testee and runs the strict checks.
#
#   tests/conformance/rust/build.sh [OUTPUT_ROOT]     (default OUTPUT_ROOT: generated)
#
# (a) needs cargo with clippy and rustfmt (the repository's own toolchain;
#     `rustup component add clippy rustfmt` when they are missing); checks with
#     format-check.sh that <OUTPUT_ROOT>'s SDK files, every golden and the
#     frames' runtime template (codegen/src/targets/rust/runtime.rs) are exactly what
#     rustfmt prints (default configuration, edition 2021); the client's runtime
#     template (client_runtime.rs) names the role types by placeholders
#     (`coprocess::RoleRequest`, ...; codegen/src/targets/rust/roles.rs), whose
#     lengths are not the names' a contract gives them, so it is checked as
#     rendered: in the client.rs of <OUTPUT_ROOT> and of every golden; (b) runs `cargo clippy
#     -D warnings` on the testee, which includes the generated SDK files
#     generated/rust/mcptest-runner/src/{coprocess,client}.rs, and on every golden copy
#     codegen/tests/golden/*/rust/mcptest-runner/src/{coprocess,client}.rs (through a
#     small crate written under target/conformance-rust/goldens); (c) builds
#     the testee (release) into target/conformance-rust.
# With CONFORMANCE_SCHEMA set (the proof round), it also builds the
# protocol library's testee, testee-lib (feature `library`), on that contract
# (the library's build.rs reads it from MCPTEST_COPROCESS_SCHEMA); run.sh
# --library runs it.
# The testee includes <OUTPUT_ROOT>/rust/mcptest-runner/src/coprocess.rs with
# #[path]: for generated/ in place; for any other output root, from a copy of
# the testee crate under $CONFORMANCE_BUILD (default target/conformance-rust),
# built (unoptimized) in its own target directory there, so that it never replaces the
# testee of generated/. run.sh runs $CONFORMANCE_BUILD's testee.
# Exit 0 on success, 1 on a failed check, 3 (1 when CI=true) when no toolchain.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# The goldens checked beside OUTPUT_ROOT (the proof round points this at a
# folder linking every golden and generated/, so one clippy run covers them).
GOLDENS="${CONFORMANCE_GOLDENS:-$root/codegen/tests/golden}"
output_root="${1:-generated}"
case "$output_root" in /*) ;; *) output_root="$root/$output_root" ;; esac
build="${CONFORMANCE_BUILD:-$root/target/conformance-rust}"
export CARGO_TARGET_DIR="$root/target/conformance-rust"
crate="$here"
profile=release
if [ "$(cd "$output_root" && pwd)" != "$root/generated" ]; then
  # The same crate, pointed at the other output root, built apart.
  # Files are replaced only when their text changes: cargo goes by mtime,
  # and a warm rebuild of the copy should check nothing twice.
  crate="$build/testee-src"
  mkdir -p "$crate/src"
  put() { cmp -s "$1" "$2" 2>/dev/null || cp "$1" "$2"; }
  # The library dependency's path, from the copy.
  sed "s|^mcptest-coprocess = { path = \"../../..\"|mcptest-coprocess = { path = \"$root\"|" "$here/Cargo.toml" >"$crate/Cargo.toml.next"
  put "$crate/Cargo.toml.next" "$crate/Cargo.toml"
  rm -f "$crate/Cargo.toml.next"
  put "$here/Cargo.lock" "$crate/Cargo.lock"
  for source in "$here"/src/*.rs; do
    sed "s|^#\[path = \".*/generated/rust/mcptest-runner/src/\(.*\)\"\]\$|#[path = \"$output_root/rust/mcptest-runner/src/\1\"]|" "$source" >"$crate/src/.next"
    put "$crate/src/.next" "$crate/src/$(basename "$source")"
  done
  rm -f "$crate/src/.next"
  export CARGO_TARGET_DIR="$build/target"
  # No incremental state: the generated files are rewritten whole, and it
  # doubled the disk the proof round writes (2.5 GiB for the proof contract).
  export CARGO_INCREMENTAL=0
  profile=dev
fi

# missing, apt_install
. "$(dirname "${BASH_SOURCE[0]}")/../../toolchain.sh"

command -v cargo >/dev/null 2>&1 || missing "cargo (install Rust with rustup)"
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy >&2 2>/dev/null || true
cargo clippy --version >/dev/null 2>&1 || missing "cargo clippy (rustup component add clippy)"

# The formatter: the SDK files of this output root, every golden, the frames' runtime
# template (the client's is checked as rendered, in every client.rs: see above).
format_files=("$output_root/rust/mcptest-runner/src/coprocess.rs" "$output_root/rust/mcptest-runner/src/client.rs"
  "$root/codegen/src/targets/rust/runtime.rs")
for golden in "$GOLDENS"/*/rust/mcptest-runner/src/coprocess.rs "$GOLDENS"/*/rust/mcptest-runner/src/client.rs; do
  [ -f "$golden" ] && format_files+=("$golden")
done
format_status=0
bash "$here/format-check.sh" "${format_files[@]}" || format_status=$?
[ "$format_status" = 3 ] && exit 3
[ "$format_status" = 0 ] || { echo "rust: rustfmt check failed" >&2; exit 1; }

# The documentation lints a careful human satisfies, next to the defaults.
# (--lib --bins: the crate has no tests, and --all-targets would compile the
# generated file a second time, as the library's test harness.)
lints=(-D warnings -D clippy::unwrap_used -D clippy::panic -D clippy::must_use_candidate -D clippy::missing_errors_doc)
status=0
(cd "$crate" && cargo clippy --quiet --locked --profile "$profile" --lib --bins -- "${lints[@]}") || status=1

golden_files=("$GOLDENS"/*/rust/mcptest-runner/src/coprocess.rs)
if [ -f "${golden_files[0]}" ]; then
  # The goldens: one module each in a throwaway crate sharing the lockfile.
  goldens="$CARGO_TARGET_DIR/goldens"
  mkdir -p "$goldens/src"
  sed -e 's/^name = "conformance-testee-rust"/name = "conformance-goldens-rust"/' \
    -e "s|^mcptest-coprocess = { path = \"../../..\"|mcptest-coprocess = { path = \"$root\"|" \
    -e "/^\[\[bin\]\]/,/^$/d" -e "/^\[lib\]/,/^$/d" "$here/Cargo.toml" >"$goldens/Cargo.toml"
  cp "$here/Cargo.lock" "$goldens/Cargo.lock"
  sed -i 's/^name = "conformance-testee-rust"/name = "conformance-goldens-rust"/' "$goldens/Cargo.lock"
  {
    echo "//! Every golden copy of the generated Rust files (the frames and the client"
    echo "//! beside them), for clippy (written by build.sh)."
    n=0
    for golden in "$GOLDENS"/*/rust/mcptest-runner/src/coprocess.rs; do
      [ -f "$golden" ] || continue
      echo "pub mod golden_$n {"
      echo "    #[path = \"$golden\"]"
      echo "    pub mod coprocess;"
      if [ -f "${golden%coprocess.rs}client.rs" ]; then
        echo "    #[path = \"${golden%coprocess.rs}client.rs\"]"
        echo "    pub mod client;"
      fi
      echo "}"
      n=$((n + 1))
    done
  } >"$goldens/src/lib.rs.new"
  cmp -s "$goldens/src/lib.rs.new" "$goldens/src/lib.rs" 2>/dev/null || mv "$goldens/src/lib.rs.new" "$goldens/src/lib.rs"
  rm -f "$goldens/src/lib.rs.new"
  (cd "$goldens" && cargo clippy --quiet --locked --profile "$profile" -- "${lints[@]}") || status=1
fi

if [ "$status" != 0 ]; then
  echo "rust: clippy -D warnings failed" >&2
  exit 1
fi
features=()
if [ -n "${CONFORMANCE_SCHEMA:-}" ]; then
  export MCPTEST_COPROCESS_SCHEMA="$CONFORMANCE_SCHEMA"
  features=(--features library)
fi
(cd "$crate" && cargo build --quiet --locked --profile "$profile" --bins "${features[@]}") || exit 1
if [ "$CARGO_TARGET_DIR" != "$build" ]; then
  # (the copy's testees are built unoptimized: they answer a few hundred cases)
  mkdir -p "$build/release"
  cp "$CARGO_TARGET_DIR/debug/testee" "$build/release/testee"
  [ -z "${CONFORMANCE_SCHEMA:-}" ] || cp "$CARGO_TARGET_DIR/debug/testee-lib" "$build/release/testee-lib"
fi
echo "rust: rustfmt and clippy passed on the generated file and the goldens; testee ready" >&2

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
#     the testee (unoptimized, linted by clippy in the same compile) into
#     target/conformance-rust, and copies it to $CONFORMANCE_BUILD/testees.
# With CONFORMANCE_LIBRARY set (the constraints proof), it also builds the
# protocol library's testee, testee-lib (feature `library`), on that
# proof's contract: CONFORMANCE_LIBRARY is a folder with the library's frames
# for it (coprocess.rs, as the crate's build.rs renders them, and the
# contract, schema.json), and the library is the repository's src/ built as
# a stand-in package (library-shim/: its manifest lists the library's own
# dependencies, its build script copies the frames into OUT_DIR), so that
# codegen and its dependencies are not compiled a second time for it; run.sh
# --library runs it.
# The testee includes <OUTPUT_ROOT>/rust/mcptest-runner/src/coprocess.rs with
# #[path]: for generated/ in place; for any other output root, from a copy of
# the testee crate under $CONFORMANCE_BUILD (default target/conformance-rust),
# as a package of its own in the same target directory (the dependencies are
# built once for every output root), so that it never replaces the testee of
# generated/. run.sh runs $CONFORMANCE_BUILD's testee.
# Exit 0 on success, 1 on a failed check, 3 (1 when CI=true) when no toolchain.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# The goldens checked beside OUTPUT_ROOT (the names proof points this at an
# empty folder: the conformance build checks the goldens already).
GOLDENS="${CONFORMANCE_GOLDENS:-$root/codegen/tests/golden}"
output_root="${1:-generated}"
case "$output_root" in /*) ;; *) output_root="$root/$output_root" ;; esac
build="${CONFORMANCE_BUILD:-$root/target/conformance-rust}"
# One target directory for every testee build, whichever output root and
# proof: the dependencies are built once for all of them.
export CARGO_TARGET_DIR="$root/target/conformance-rust"
mkdir -p "$CARGO_TARGET_DIR"
crate="$here"
if [ "$(cd "$output_root" && pwd)" != "$root/generated" ]; then
  # The same crate, pointed at the other output root, as a package of its
  # own (named after $build), so that its build never replaces the testee of
  # generated/ or of another output root. Files are replaced only when their
  # text changes: cargo goes by mtime, and a warm rebuild of the copy should
  # check nothing twice.
  crate="$build/testee-src"
  package="conformance-testee-rust-$(printf '%s' "$build" | sha256sum | cut -c1-12)"
  mkdir -p "$crate/src"
  put() { cmp -s "$1" "$2" 2>/dev/null || cp "$1" "$2"; }
  # The package's name, and the library dependency's path from the copy.
  sed -e "s|^name = \"conformance-testee-rust\"|name = \"$package\"|" \
    -e "s|^mcptest-coprocess = { path = \"../../..\"|mcptest-coprocess = { path = \"$root\"|" "$here/Cargo.toml" >"$crate/Cargo.toml.next"
  if [ -n "${CONFORMANCE_LIBRARY:-}" ]; then
    shim="$build/library-shim"
    mkdir -p "$shim"
    python3 "$here/library-shim/manifest.py" "$root" >"$shim/Cargo.toml.next"
    put "$shim/Cargo.toml.next" "$shim/Cargo.toml"
    put "$here/library-shim/build.rs" "$shim/build.rs"
    rm -f "$shim/Cargo.toml.next"
    sed -i "s|^mcptest-coprocess = { path = \"$root\"|mcptest-coprocess = { path = \"$shim\"|" "$crate/Cargo.toml.next"
  fi
  put "$crate/Cargo.toml.next" "$crate/Cargo.toml"
  sed "s/^name = \"conformance-testee-rust\"/name = \"$package\"/" "$here/Cargo.lock" >"$crate/Cargo.lock.next"
  put "$crate/Cargo.lock.next" "$crate/Cargo.lock"
  rm -f "$crate/Cargo.toml.next" "$crate/Cargo.lock.next"
  for source in "$here"/src/*.rs; do
    sed "s|^#\[path = \".*/generated/rust/mcptest-runner/src/\(.*\)\"\]\$|#[path = \"$output_root/rust/mcptest-runner/src/\1\"]|" "$source" >"$crate/src/.next"
    put "$crate/src/.next" "$crate/src/$(basename "$source")"
  done
  rm -f "$crate/src/.next"
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
lints=(-D warnings -D clippy::unwrap_used -D clippy::panic -D clippy::must_use_candidate -D clippy::missing_errors_doc)
clippy_driver="$(rustc --print sysroot)/bin/clippy-driver"
[ -x "$clippy_driver" ] || missing "clippy-driver (rustup component add clippy)"
status=0

if [ "$crate" = "$here" ]; then
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
  # Checked, not built: nothing runs them.
  (cd "$goldens" && cargo clippy --quiet --locked -- "${lints[@]}") || status=1
fi

# The testee is linted while it is built, in one compile: clippy-driver
# compiles the crate in place of rustc (the way `cargo clippy` has it, with
# its arguments in CLIPPY_ARGS, each followed by __CLIPPY_HACKERY__), and the
# dependencies are built by rustc as usual. Its library and binaries are all
# its targets (it has no tests; `--all-targets` would compile the generated
# file a second time, as the library's test harness).
# The library's build against the stand-in package prunes the copy's lock
# (codegen and what only it needs leave it; no version changes), so it is
# not --locked; every other build is.
features=(--locked)
if [ -n "${CONFORMANCE_LIBRARY:-}" ]; then
  [ "$crate" != "$here" ] || { echo "rust: CONFORMANCE_LIBRARY needs another output root than generated/" >&2; exit 1; }
  for file in coprocess.rs schema.json; do
    [ -f "$CONFORMANCE_LIBRARY/$file" ] || { echo "rust: no $CONFORMANCE_LIBRARY/$file (CONFORMANCE_LIBRARY)" >&2; exit 1; }
  done
  export MCPTEST_COPROCESS_RENDERED="$CONFORMANCE_LIBRARY"
  features=(--features library)
fi
clippy_args=""
for arg in "${lints[@]}"; do clippy_args+="${arg}__CLIPPY_HACKERY__"; done
# Builds of other output roots run at the same time share the target
# directory: the lock keeps each build and the copy of its binaries together.
mkdir -p "$build/testees"
(
  flock 9
  (cd "$crate" && RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS="$clippy_args" \
    cargo build --quiet --bins "${features[@]}") || exit 1
  testees=(testee)
  [ -z "${CONFORMANCE_LIBRARY:-}" ] || testees+=(testee-lib)
  for testee in "${testees[@]}"; do
    cp "$CARGO_TARGET_DIR/debug/$testee" "$build/testees/$testee.next"
    mv "$build/testees/$testee.next" "$build/testees/$testee"
  done
) 9>"$CARGO_TARGET_DIR/.testee-build.lock" || status=1

if [ "$status" != 0 ]; then
  echo "rust: clippy -D warnings or the build failed" >&2
  exit 1
fi
echo "rust: rustfmt and clippy passed on the generated file and the goldens; testee ready" >&2

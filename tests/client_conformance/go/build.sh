#!/usr/bin/env bash
# Prepares the Go client testee: main.go plus the generated coprocess.go and
# client.go of <OUTPUT_ROOT>/go/ (default: generated) as package mcptest,
# standard library only, built with the Go toolchain that
# tests/conformance/go/build.sh uses (PATH first, else the one it installs
# under target/toolchains; that script is run only when neither exists).
# main.go must be gofmt- and go vet-clean. The strict checks of the client
# itself run in tests/conformance/go/build.sh. With CLIENT_RENAMED (the
# renamed contract's tree, tests/client_conformance/renamed.rs) its SDK and
# rewritten main.go are the package ./renamed of the same module, vetted and
# built in the same go invocations, into testee-renamed (`run.sh renamed`).
# Exit 0 when ready, 1 failed, 3 (1 when CI=true) when no toolchain.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-${OUTPUT_ROOT:-generated}}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
state="$root/target/client_conformance/go"
mkdir -p "$state"
export GOTOOLCHAIN=local GOFLAGS="-mod=mod -trimpath" GOPATH="$root/target/toolchains/gopath"
export GOCACHE="${GOCACHE_OVERRIDE:-$root/target/go-cache}"

find_go() {
  local candidate
  for candidate in "$(command -v go || true)" "$root"/target/toolchains/go-*/bin/go; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] && "$candidate" env GOVERSION >/dev/null 2>&1; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}
go="$(find_go || true)"
if [ -z "$go" ]; then
  CONFORMANCE_TOOLCHAIN_ONLY=1 bash "$root/tests/conformance/go/build.sh" generated # installs Go; exits 3 (or 1 in CI) when it cannot
  go="$(find_go)"
fi
gofmt="$(dirname "$go")/gofmt"

for file in coprocess.go client.go; do
  [ -f "$out/go/$file" ] || { echo "no $out/go/$file (cargo run -p codegen)" >&2; exit 1; }
done
src="$state/src"
rm -rf "$src" && mkdir -p "$src/mcptest"
printf 'module mcptest.local/client_conformance\n\ngo 1.18\n' >"$src/go.mod"
cp "$out/go/coprocess.go" "$out/go/client.go" "$src/mcptest/"
cp "$here/main.go" "$src/main.go"
packages=(.)
if [ -n "${CLIENT_RENAMED:-}" ]; then
  mkdir -p "$src/renamed/mcptest"
  cp "$CLIENT_RENAMED/generated/go/coprocess.go" "$CLIENT_RENAMED/generated/go/client.go" "$src/renamed/mcptest/"
  # Only the import path of its SDK package differs.
  sed 's#"mcptest.local/client_conformance/mcptest"#"mcptest.local/client_conformance/renamed/mcptest"#' \
    "$CLIENT_RENAMED/tests/client_conformance/go/main.go" >"$src/renamed/main.go"
  packages+=(./renamed)
fi
unformatted="$("$gofmt" -l "$here/main.go")"
[ -z "$unformatted" ] || { echo "FAIL tests/client_conformance/go/main.go is not gofmt-clean" >&2; "$gofmt" -d "$here/main.go" >&2; exit 1; }
rm -rf "$state/bin" && mkdir -p "$state/bin"
(cd "$src" && "$go" vet ./... && "$go" build -trimpath -o "$state/bin/" "${packages[@]}")
mv "$state/bin/client_conformance" "$state/testee"
[ ! -f "$state/bin/renamed" ] || mv "$state/bin/renamed" "$state/testee-renamed"
echo "go: client testee built at ${state#"$root"/}/testee" >&2

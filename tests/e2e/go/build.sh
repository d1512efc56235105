#!/usr/bin/env bash
# Builds the Go end-to-end client: main.go plus the generated coprocess.go and
# client.go (the session client) as package mcptest, standard library only,
# with the Go toolchain that tests/conformance/go/build.sh uses (PATH first,
# else the one it installs under target/toolchains); that script is run only
# when neither exists.
# gofmt and go vet must be clean. Exit 0 ok, 1 failed, 3 toolchain missing
# (1 with CI=true).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/target/e2e/go"
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

src="$out/src"
rm -rf "$src" && mkdir -p "$src/mcptest"
printf 'module mcptest.local/e2e\n\ngo 1.18\n' >"$src/go.mod"
cp "$root/generated/go/coprocess.go" "$root/generated/go/client.go" "$src/mcptest/"
cp "$here/main.go" "$src/main.go"
unformatted="$("$gofmt" -l "$here/main.go")"
[ -z "$unformatted" ] || { echo "FAIL tests/e2e/go/main.go is not gofmt-clean" >&2; "$gofmt" -d "$here/main.go" >&2; exit 1; }
(cd "$src" && "$go" vet ./... && "$go" build -trimpath -o "$out/client" .)
echo "go: e2e client built at ${out#"$root"/}/client" >&2

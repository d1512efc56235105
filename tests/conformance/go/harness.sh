# Sourced by the Go bench scripts (bench-constrained.sh, bench-patterns.sh):
# `build_harness NAME MAIN_GO OUTPUT_ROOT` checks MAIN_GO with gofmt and go
# vet and builds it, with OUTPUT_ROOT's generated coprocess.go as the package
# `mcptest.local/conformance/mcptest`, into target/conformance/go/NAME, and
# prints that path. Uses the Go build.sh finds (on PATH, else under
# target/toolchains). Needs ROOT set.
build_harness() {
  local name="$1" main="$2" output_root="$3"
  local work="$ROOT/target/conformance/go"
  mkdir -p "$work"
  export GOTOOLCHAIN=local GOFLAGS="-mod=mod -trimpath" GOPATH="$ROOT/target/toolchains/gopath" GOCACHE="${GOCACHE_OVERRIDE:-$ROOT/target/go-cache}"
  local go gofmt
  go="$(command -v go || true)"
  [ -n "$go" ] || go="$(ls "$ROOT"/target/toolchains/go-*/bin/go | head -n 1)"
  gofmt="$(dirname "$go")/gofmt"
  [ -x "$gofmt" ] || gofmt="$("$go" env GOROOT)/bin/gofmt"
  if [ -n "$("$gofmt" -l "$main")" ]; then
    echo "FAIL ${main#"$ROOT"/}: not gofmt-clean" >&2
    return 1
  fi
  local src="$work/$name-src"
  rm -rf "$src" && mkdir -p "$src/mcptest"
  printf 'module mcptest.local/conformance\n\ngo 1.18\n' >"$src/go.mod"
  cp "$output_root/go/coprocess.go" "$src/mcptest/coprocess.go"
  cp "$main" "$src/main.go"
  (cd "$src" && "$go" vet . && "$go" build -o "$work/$name" .) >&2
  echo "$work/$name"
}

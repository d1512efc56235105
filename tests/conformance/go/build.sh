#!/usr/bin/env bash
# Builds the Go conformance testee and runs the strict checks (header,
# gofmt -l, go vet, staticcheck) on <OUTPUT_ROOT>/go/coprocess.go with the
# session client beside it (client.go) and on every golden copy under
# codegen/tests/golden/*/go/ (one go vet and one staticcheck run over all of
# them), gofmt + go vet on the runtime file codegen/src/targets/go/runtime.go
# and gofmt on client_runtime.go. A warm run whose inputs passed before (a
# content stamp, tests/toolchain.sh) skips the checks.
#
# With CONFORMANCE_TOOLCHAIN_ONLY=1: the Go toolchain only.
#
# usage: tests/conformance/go/build.sh [OUTPUT_ROOT]   (default: generated)
# exit: 0 ok, 1 a check or the build failed (or no toolchain with CI=true),
#       3 no Go toolchain could be had (outside CI).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
# The goldens checked beside OUTPUT_ROOT (the proof round points this at a
# folder linking every golden and generated/, so one run of each tool covers them).
GOLDENS="${CONFORMANCE_GOLDENS:-$ROOT/codegen/tests/golden}"
OUTPUT_ROOT="${1:-generated}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac

WORK="${CONFORMANCE_BUILD:-$ROOT/target/conformance/go}"
# checked_before, mark_checked
. "$ROOT/tests/toolchain.sh"
TOOLCHAINS="$ROOT/target/toolchains"
GO_VERSION="1.22.12" # installed only when no Go >= 1.18 is on PATH
mkdir -p "$WORK"

# Keep Go's caches inside the repo's target/ and never fetch toolchains. Every
# Go command of the suite builds with -trimpath (GOFLAGS, here and in the other
# Go scripts): a build cache entry depends on it, so one setting for all of
# them compiles the standard library once per cache, not once for vet and
# staticcheck and again for the -trimpath testees (from an empty cache, the
# names proof's Go build: 58 -> 50 s of CPU).
export GOTOOLCHAIN=local GOFLAGS="-mod=mod -trimpath" GOPATH="$TOOLCHAINS/gopath"
# One build cache for every Go build of the suite (it is safe for concurrent use):
# the standard library is compiled and vetted once, not once per proof.
export GOCACHE="${GOCACHE_OVERRIDE:-$ROOT/target/go-cache}"
# The compiler, vet and staticcheck collect garbage less often (a heap up to
# five times the live one, not twice): on the names proof's output, from an
# empty build cache, 73 -> 65 s of CPU.
export GOGC="${GOGC:-400}"

no_toolchain() {
  if [ "${CI:-}" = "true" ]; then
    echo "error: no Go toolchain (>= 1.18) found or installable: $1" >&2
    exit 1
  fi
  echo "TOOLCHAIN MISSING: go (>= 1.18): $1" >&2
  exit 3
}

go_ok() { # go binary usable and >= 1.18?
  local v
  v="$("$1" env GOVERSION 2>/dev/null)" || return 1
  v="${v#go}"
  local major="${v%%.*}" rest="${v#*.}"
  local minor="${rest%%[.a-z]*}"
  [ "$major" -gt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -ge 18 ]; }
}

install_go() { # the toolchain module from the Go module proxy
  local arch
  case "$(uname -m)" in
    x86_64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;; *) return 1 ;;
  esac
  local url="https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go${GO_VERSION}.linux-${arch}.zip"
  local zip="$TOOLCHAINS/go-${GO_VERSION}.zip" dest="$TOOLCHAINS/go-${GO_VERSION}"
  mkdir -p "$TOOLCHAINS"
  echo "installing Go ${GO_VERSION} from the Go module proxy into ${dest#"$ROOT"/}" >&2
  if command -v curl >/dev/null; then
    curl -fsSL -o "$zip" "$url" || return 1
  elif command -v python3 >/dev/null; then
    python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$url" "$zip" || return 1
  else
    return 1
  fi
  rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$zip" "$dest.tmp" || return 1
  local top="$dest.tmp/golang.org/toolchain@v0.0.1-go${GO_VERSION}.linux-${arch}"
  chmod +x "$top"/bin/* "$top"/pkg/tool/*/* 2>/dev/null || true
  mv "$top" "$dest" && rm -rf "$dest.tmp" "$zip"
}

find_go() {
  if command -v go >/dev/null && go_ok "$(command -v go)"; then
    command -v go
    return
  fi
  local local_go="$TOOLCHAINS/go-${GO_VERSION}/bin/go"
  if [ -x "$local_go" ] && go_ok "$local_go"; then
    echo "$local_go"
    return
  fi
  if install_go && go_ok "$local_go"; then
    echo "$local_go"
    return
  fi
  no_toolchain "none on PATH, and installing Go ${GO_VERSION} from proxy.golang.org failed"
}

GO="$(find_go)"
GOFMT="$(dirname "$GO")/gofmt"
[ -x "$GOFMT" ] || GOFMT="$("$GO" env GOROOT)/bin/gofmt"
echo "using $("$GO" version) at $GO" >&2

# staticcheck, pinned, built from the Go module proxy into target/toolchains.
STATICCHECK_VERSION="v0.8.2"
find_staticcheck() {
  local bin="$TOOLCHAINS/go-bin-staticcheck-$STATICCHECK_VERSION/staticcheck"
  if [ ! -x "$bin" ]; then
    echo "installing staticcheck $STATICCHECK_VERSION from the Go module proxy" >&2
    GOBIN="$(dirname "$bin")" GOFLAGS="-mod=mod -trimpath" "$GO" install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION" >&2 ||
      no_toolchain "staticcheck $STATICCHECK_VERSION (go install from proxy.golang.org failed)"
  fi
  echo "$bin"
}
# CONFORMANCE_TOOLCHAIN_ONLY=1 (the client testee's build): Go only.
if [ -n "${CONFORMANCE_TOOLCHAIN_ONLY:-}" ]; then
  echo "go: toolchain ready ($GO)" >&2
  exit 0
fi
STATICCHECK="$(find_staticcheck)"

# A throwaway module holding one copy of the generated file as package
# mcptest, with the session client beside it (client.go) when there is one.
module_with() { # module_with DIR FILE
  mkdir -p "$1/mcptest"
  printf 'module mcptest.local/conformance\n\ngo 1.18\n' >"$1/go.mod"
  cp "$2" "$1/mcptest/coprocess.go"
  local client
  client="$(dirname "$2")/client.go"
  if [ -f "$client" ]; then cp "$client" "$1/mcptest/client.go"; fi
}

FAILED=0
# Every checked file, as package mcptest of its own folder under one module
# ($WORK/check/<name>/mcptest), so that one go vet and one staticcheck run
# cover them all (their findings name the folder: generated, golden-<schema>).
CHECK="$WORK/check"
rm -rf "$CHECK" && mkdir -p "$CHECK"
printf 'module mcptest.local/conformance\n\ngo 1.18\n' >"$CHECK/go.mod"
CHECKED=()
check_file() { # header and gofmt (coprocess.go and its client.go), then into the module
  local file="$1" name="$2"
  local rel="${file#"$ROOT"/}"
  local client="$(dirname "$file")/client.go" each
  if [ ! -f "$client" ]; then
    echo "FAIL ${client#"$ROOT"/}: no session client beside $rel" >&2
    FAILED=1
    client=""
  fi
  for each in "$file" $client; do
    CHECKED+=("$each")
    if ! head -n 1 "$each" | grep -Eq '^// Code generated .* DO NOT EDIT\.$'; then
      echo "FAIL ${each#"$ROOT"/}: first line is not Go's generated-code header" >&2
      FAILED=1
    fi
    if [ -n "$("$GOFMT" -l "$each")" ]; then
      echo "FAIL ${each#"$ROOT"/}: not gofmt-clean:" >&2
      "$GOFMT" -d "$each" | head -n 40 >&2
      FAILED=1
    fi
  done
  mkdir -p "$CHECK/$name/mcptest"
  cp "$file" "$CHECK/$name/mcptest/coprocess.go"
  [ -z "$client" ] || cp "$client" "$CHECK/$name/mcptest/client.go"
  # staticcheck exempts files marked generated from some checks (unused code,
  # U1000, among them): the copy it checks has no header, so nothing is hidden.
  sed -i '1{/^\/\/ Code generated .* DO NOT EDIT\.$/d}' "$CHECK/$name"/mcptest/*.go
}

GENERATED="$OUTPUT_ROOT/go/coprocess.go"
if [ ! -f "$GENERATED" ]; then
  echo "error: $GENERATED does not exist; run \`cargo run -p codegen -- --out ${OUTPUT_ROOT#"$ROOT"/}\` first" >&2
  exit 1
fi
check_file "$GENERATED" generated
for golden in "$GOLDENS"/*/go/coprocess.go; do
  [ -f "$golden" ] || continue
  schema="$(basename "$(dirname "$(dirname "$golden")")")"
  check_file "$golden" "golden-$schema"
done
# A warm run skips the vet and staticcheck of text that passed them before.
INPUTS=("${CHECKED[@]}" "$ROOT/codegen/src/targets/go/runtime.go" "$ROOT/codegen/src/targets/go/client_runtime.go" "$HERE/main.go")
if [ "$FAILED" -eq 0 ] && checked_before "$WORK/.checked" "${INPUTS[@]}" && [ -x "$WORK/testee" ]; then
  echo "go: ${#CHECKED[@]} generated file(s) unchanged since they passed; testee ready" >&2
  exit 0
fi
if ! (cd "$CHECK" && "$GO" vet ./...); then
  echo "FAIL: go vet (on the folders named above)" >&2
  FAILED=1
fi
(cd "$CHECK" && "$STATICCHECK" ./...) || { echo "FAIL: staticcheck (on the folders named above)" >&2; FAILED=1; }
echo "checked ${#CHECKED[@]} generated file(s) in $(cd "$CHECK" && ls -d */ | tr -d / | tr '\n' ' ')" >&2

# The runtime, a real Go file of package mcptest, checked as written: gofmt,
# and go vet with a stub for the one generated name it uses (MaxDepth). Its
# unused helpers are pruned per schema by codegen, so staticcheck (U1000)
# runs on the generated files above, not here.
RUNTIME="$ROOT/codegen/src/targets/go/runtime.go"
if [ -n "$("$GOFMT" -l "$RUNTIME")" ]; then
  echo "FAIL ${RUNTIME#"$ROOT"/}: not gofmt-clean:" >&2
  "$GOFMT" -d "$RUNTIME" | head -n 40 >&2
  FAILED=1
fi
RUNTIME_DIR="$WORK/check/runtime"
rm -rf "$RUNTIME_DIR" && module_with "$RUNTIME_DIR" "$RUNTIME"
printf 'package mcptest\n\n// MaxDepth stands in for the generated limit.\nconst MaxDepth = 64\n' >"$RUNTIME_DIR/mcptest/limits.go"
(cd "$RUNTIME_DIR" && "$GO" vet ./...) || { echo "FAIL ${RUNTIME#"$ROOT"/}: go vet" >&2; FAILED=1; }
echo "checked ${RUNTIME#"$ROOT"/}" >&2

# The session client's runtime names the role types by placeholders
# (RoleRequest, RoleHandshakeMethod, ...) that codegen fills with the
# contract's names, so as written it is Go syntax but no Go package: gofmt
# checks it here; go vet and staticcheck check it as rendered, in every
# client.go above, which embeds it whole (pruned of unused helpers).
CLIENT_RUNTIME="$ROOT/codegen/src/targets/go/client_runtime.go"
if [ -n "$("$GOFMT" -l "$CLIENT_RUNTIME")" ]; then
  echo "FAIL ${CLIENT_RUNTIME#"$ROOT"/}: not gofmt-clean:" >&2
  "$GOFMT" -d "$CLIENT_RUNTIME" | head -n 40 >&2
  FAILED=1
fi
echo "checked ${CLIENT_RUNTIME#"$ROOT"/} (gofmt; vetted as rendered in client.go)" >&2

# The testee: the generated file plus main.go, standard library only.
SRC="$WORK/testee-src"
rm -rf "$SRC" && module_with "$SRC" "$GENERATED"
cp "$HERE/main.go" "$SRC/main.go"
if [ -n "$("$GOFMT" -l "$HERE/main.go")" ]; then
  echo "FAIL tests/conformance/go/main.go: not gofmt-clean" >&2
  FAILED=1
fi
# The frames package was vetted above (check_file, the same text): here
# main.go's package alone, with the build's flags, so that the frames
# package is compiled once, for vet's export data and the build alike.
(cd "$SRC" && "$GO" vet -trimpath . && "$GO" build -trimpath -o "$WORK/testee" .) || { echo "FAIL: building the testee" >&2; exit 1; }
[ "$FAILED" -eq 0 ] || exit 1
mark_checked "$WORK/.checked" "${INPUTS[@]}"
echo "built ${WORK#"$ROOT"/}/testee" >&2

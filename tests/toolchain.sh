# Shared by the toolchain scripts under tests/ (`. tests/toolchain.sh`): the
# one convention for a toolchain that cannot be had, and the apt fallback.
#
# missing <what>: with CI=true the run fails (exit 1); elsewhere the script
# prints `TOOLCHAIN MISSING: <what>` and exits 3, which the Rust runners report
# with a loud banner (never a silent skip).
missing() {
  if [ "${CI:-}" = "true" ]; then
    echo "error: toolchain missing: $*" >&2
    exit 1
  fi
  echo "TOOLCHAIN MISSING: $*" >&2
  exit 3
}

# apt_install <package>...: only where apt-get exists and we may use it
# (root, or passwordless sudo). Returns non-zero when it could not.
apt_install() {
  local sudo=""
  [ "$(id -u)" = "0" ] || { command -v sudo >/dev/null 2>&1 && sudo="sudo -n"; } || return 1
  command -v apt-get >/dev/null 2>&1 || return 1
  echo "installing $* with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq >&2 || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >&2
}

# checked_before <stamp> <file>...: true when <stamp> holds the hash of these
# files and of the calling script, as `mark_checked` wrote it after they last
# passed; so a warm run does not check unchanged text twice.
# mark_checked <stamp> <file>...: records that they passed.
checks_hash() { cat "$@" "$0" | sha256sum | cut -d' ' -f1; }
checked_before() {
  local stamp="$1"
  shift
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(checks_hash "$@")" ]
}
mark_checked() {
  local stamp="$1"
  shift
  mkdir -p "$(dirname "$stamp")"
  checks_hash "$@" >"$stamp"
}

# prints_as <formatter> <label> <file> <command>...: runs <command> with <file>
# on stdin; true when it prints <file> unchanged, else false after a unified
# diff (its right side labelled "<file> (<label>)") and a line saying that
# <file> is not what <formatter> prints. The format-check.sh scripts share it.
prints_as() {
  local formatter="$1" label="$2" file="$3"
  shift 3
  local formatted
  if ! formatted="$("$@" <"$file")"; then
    echo "error: $formatter could not read $file" >&2
    return 1
  fi
  if ! diff -u --label "$file" --label "$file ($label)" "$file" <(printf '%s\n' "$formatted") >&2; then
    echo "error: $file is not what $formatter prints (diff above)" >&2
    return 1
  fi
}

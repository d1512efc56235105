# Shared by build.sh and format-check.sh (`. tools.sh` with $here and $root
# set): finds python3 >= 3.10 (apt-installs it on a bare Debian when run as
# root) and the pinned mypy and ruff (on PATH at the pinned version, else a
# venv under target/toolchains/py-venv); sets $python, $mypy and $ruff.

MYPY_VERSION=1.13.0
RUFF_VERSION=0.7.4

venv="$root/target/toolchains/py-venv"

# missing, apt_install
. "$here/../../toolchain.sh"

python_ok() {
  "$1" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null
}

find_python() {
  local candidate
  for candidate in python3 python3.13 python3.12 python3.11 python3.10; do
    if command -v "$candidate" >/dev/null 2>&1 && python_ok "$(command -v "$candidate")"; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

python="$(find_python || true)"
if [ -z "$python" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing python3 and python3-venv with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >&2 || true
  python="$(find_python || true)"
fi
[ -n "$python" ] || missing "python3 >= 3.10 with venv (apt-get install python3 python3-venv)"

# mypy and ruff: the pinned versions already on PATH, else the venv.
tool_at_version() {
  command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -q " $2\b"
}
if tool_at_version mypy "$MYPY_VERSION" && tool_at_version ruff "$RUFF_VERSION"; then
  mypy="$(command -v mypy)"
  ruff="$(command -v ruff)"
else
  stamp="$venv/.pinned"
  want="mypy==$MYPY_VERSION ruff==$RUFF_VERSION"
  # A venv whose scripts cannot run (the checkout moved: their shebangs name
  # the old path) is rebuilt, not trusted.
  if ! "$venv/bin/mypy" --version >/dev/null 2>&1 || [ ! -x "$venv/bin/ruff" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "installing $want into ${venv#"$root/"}" >&2
    "$python" -m venv --clear "$venv" >&2 || missing "python3 -m venv failed (apt-get install python3-venv)"
    # shellcheck disable=SC2086
    "$venv/bin/python" -m pip install -q --disable-pip-version-check $want >&2 \
      || missing "pip could not install $want from PyPI"
    echo "$want" >"$stamp"
  fi
  mypy="$venv/bin/mypy"
  ruff="$venv/bin/ruff"
fi


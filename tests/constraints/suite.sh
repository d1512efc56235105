#!/usr/bin/env bash
# Installs the JSON Schema Test Suite (json-schema-org/JSON-Schema-Test-Suite)
# for the constraints proof, as PyPI's jsonschema 4.23.0 source distribution
# ships it (under json/, with the suite's LICENSE; pinned by its sha256), into
# target/toolchains/json-schema-test-suite, and prints that folder. Nothing of
# the suite is committed to this repository.
#
#   tests/constraints/suite.sh        (exit 0 and the folder; 1 on failure)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dest="$root/target/toolchains/json-schema-test-suite"
version="4.23.0"
sha256="d71497fef26351a33265337fa77ffeb82423f3ea21283cd9467bb03999266bc4"

if [ -f "$dest/.complete-$version" ]; then
  echo "$dest"
  exit 0
fi
python="$(command -v python3 || command -v python || true)"
if [ -z "$python" ]; then
  echo "suite.sh: python3 (with pip) is needed to fetch the JSON Schema Test Suite" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf 'jsonschema==%s --hash=sha256:%s\n' "$version" "$sha256" >"$work/requirements.txt"
"$python" -m pip download --quiet --no-deps --no-binary :all: --require-hashes \
  -r "$work/requirements.txt" -d "$work/dist" >&2
tar -xzf "$work/dist/jsonschema-$version.tar.gz" -C "$work" \
  "jsonschema-$version/json/LICENSE" "jsonschema-$version/json/tests/draft2020-12"
rm -rf "$dest"
mkdir -p "$dest"
cp "$work/jsonschema-$version/json/LICENSE" "$dest/LICENSE"
cp -r "$work/jsonschema-$version/json/tests/draft2020-12" "$dest/draft2020-12"
touch "$dest/.complete-$version"
echo "$dest"

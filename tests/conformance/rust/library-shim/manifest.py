"""Prints the manifest of the protocol library's stand-in package for the
constraints proof's library testee (build.sh, CONFORMANCE_LIBRARY): the
crate `mcptest_coprocess` from the repository's own src/lib.rs, with the
library's dependencies as the repository's Cargo.toml declares them (the
optional ones, the binary's, left out) and the build script beside this file
instead of the repository's, so that codegen is not among them.

Usage: python3 manifest.py REPOSITORY_ROOT
"""

import json
import sys
import tomllib
from pathlib import Path


def dependency(name: str, spec: str | dict, workspace: dict) -> dict:
    """One dependency's table, a `workspace = true` one resolved against the workspace's."""
    table = {"version": spec} if isinstance(spec, str) else dict(spec)
    if table.pop("workspace", False):
        base = workspace[name]
        merged = {"version": base} if isinstance(base, str) else dict(base)
        features = [*merged.get("features", []), *table.pop("features", [])]
        merged.update(table)
        if features:
            merged["features"] = features
        table = merged
    return table


def toml_value(value: object) -> str:
    """A TOML inline value: strings and lists of strings as JSON spells them, booleans in lower case."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def main() -> None:
    root = Path(sys.argv[1])
    manifest = tomllib.loads((root / "Cargo.toml").read_text())
    package = manifest["package"]
    workspace = manifest["workspace"]
    edition = workspace["package"]["edition"] if isinstance(package.get("edition"), dict) else package["edition"]
    lines = [
        "[package]",
        f'name = {toml_value(package["name"])}',
        f'version = {toml_value(package["version"])}',
        f"edition = {toml_value(edition)}",
        "publish = false",
        'build = "build.rs"',
        "autobins = false",
        "autoexamples = false",
        "autotests = false",
        "autobenches = false",
        "",
        "[lib]",
        f'name = {toml_value(manifest["lib"]["name"])}',
        f"path = {toml_value(str(root / 'src' / 'lib.rs'))}",
        "",
        "[dependencies]",
    ]
    for name, spec in manifest["dependencies"].items():
        table = dependency(name, spec, workspace["dependencies"])
        if table.get("optional"):
            continue
        inline = ", ".join(f"{key} = {toml_value(value)}" for key, value in table.items())
        lines.append(f"{name} = {{ {inline} }}")
    print("\n".join(lines))


main()

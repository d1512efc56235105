#!/usr/bin/env python3
"""The real mcptest binary for a client of another contract (stdlib only).

The binary is built on schemas/ipc/v2.json; a client generated from the
renamed contract (CLIENT_CONTRACT, see tests/client_conformance/renamed.rs)
sends the same frames under other method names. Spawned by that client as if
it were the binary, this runs the binary CLIENT_PROXIED_BINARY with the same
argv and relays both streams, each request's method mapped to v2's by its place
in the two method tables (the rest of every line, and every answer, verbatim).
When its stdin ends it closes the binary's and exits with the binary's status.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

V2 = Path(__file__).resolve().parents[2] / "schemas" / "ipc" / "v2.json"


def method_names(path: Path) -> list[str]:
    table = json.loads(path.read_text(encoding="utf-8"))["x-coprocess"]
    return [method["name"] for method in table["methods"]]


def relay(source: IO[bytes], sink: IO[bytes]) -> None:
    for line in source:
        sink.write(line)
        sink.flush()


def main() -> int:
    to_v2 = dict(
        zip(method_names(Path(os.environ["CLIENT_CONTRACT"])), method_names(V2))
    )
    binary = subprocess.Popen(
        [os.environ["CLIENT_PROXIED_BINARY"], *sys.argv[1:]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert binary.stdin is not None and binary.stdout is not None
    answers = threading.Thread(
        target=relay, args=(binary.stdout, sys.stdout.buffer), daemon=True
    )
    answers.start()
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
            request["method"] = to_v2.get(request["method"], request["method"])
            line = (
                json.dumps(request, separators=(",", ":"), ensure_ascii=False).encode(
                    "utf-8"
                )
                + b"\n"
            )
        except (ValueError, KeyError, TypeError):
            pass
        try:
            binary.stdin.write(line)
            binary.stdin.flush()
        except BrokenPipeError:
            break
    try:
        binary.stdin.close()
    except BrokenPipeError:
        pass
    status = binary.wait()
    answers.join()
    return status


if __name__ == "__main__":
    sys.exit(main())

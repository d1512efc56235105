#!/usr/bin/env python3
"""The scripted fake coprocess of the client conformance suite (stdlib only).

Spawned by a client exactly as it spawns the mcptest binary:

    fake_coprocess.py exec --connection-server --server-command <argv>

with CLIENT_SCENARIOS (the scenario file) and CLIENT_SCENARIO (a scenario's
name) in its environment. It plays the scenario's `fake` script: for each
request line it receives, the first rule whose `method` matches (and whose
`times` are not used up) runs its actions; see docs/client-scenarios.md.
Error-code names, the pinned protocol version and the handshake method come
from the contract, schemas/ipc/v2.json, so the fake cannot drift from it.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

CONTRACT = Path(__file__).resolve().parents[2] / "schemas" / "ipc" / "v2.json"
CHUNK = 1 << 20


class Fake:
    def __init__(self, script: dict[str, Any], contract: dict[str, Any]) -> None:
        table = contract["x-coprocess"]
        self.codes: dict[str, int] = {row["name"]: row["code"] for row in table["error_codes"]}
        self.pin: int = table["protocol_version"]
        self.handshake: str = next(m["name"] for m in table["methods"] if m["result"].endswith("/HandshakeResult"))
        self.rules: list[dict[str, Any]] = [dict(rule) for rule in script.get("answers", [])]
        self.on_eof: list[dict[str, Any]] = script.get("on_eof", [{"exit": 0}])
        self.out = sys.stdout.buffer

    def rule_for(self, method: str) -> list[dict[str, Any]]:
        for rule in self.rules:
            if rule.get("method", "*") not in (method, "*"):
                continue
            times = rule.get("times")
            if times is not None:
                if times <= 0:
                    continue
                rule["times"] = times - 1
            return list(rule.get("do", []))
        if method == self.handshake:
            return [{"result": {"protocol_version": self.pin, "binary_version": "fake"}}]
        if method == "mcp.shutdown":
            return [{"result": {}}, {"exit": 0}]
        return [{"error": {"code": "InternalError", "message": f"the scenario scripts no answer for {method}"}}]

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.out.flush()

    def frame(self, value: object) -> None:
        self.write(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n")

    def run(self, actions: list[dict[str, Any]], request: dict[str, Any]) -> None:
        params = request.get("params") if isinstance(request.get("params"), dict) else {}
        for action in actions:
            request_id = action.get("id", request.get("id"))
            if "result" in action:
                self.frame({"jsonrpc": "2.0", "id": request_id, "result": fill(action["result"], params)})
            if "error" in action:
                error = dict(action["error"])
                if isinstance(error.get("code"), str):
                    error["code"] = self.codes[error["code"]]
                self.frame({"jsonrpc": "2.0", "id": request_id, "error": fill(error, params)})
            if "write" in action:
                end = b"\n" if action.get("newline", True) else b""
                self.write(action["write"].encode("utf-8") + end)
            if "write_repeat" in action:
                unit = action["write_repeat"].encode("utf-8")
                left = int(action["bytes"])
                block = unit * (CHUNK // len(unit) + 1)
                while left > 0:
                    piece = block[: min(left, CHUNK)]
                    self.write(piece)
                    left -= len(piece)
                if action.get("newline", True):
                    self.write(b"\n")
            if "stderr" in action:
                sys.stderr.write(action["stderr"])
                sys.stderr.flush()
            if "sleep_ms" in action:
                time.sleep(action["sleep_ms"] / 1000)
            if "exit" in action:
                os._exit(int(action["exit"]))
            if action.get("hang"):
                while True:
                    time.sleep(60)

    def serve(self) -> int:
        for line in sys.stdin.buffer:
            try:
                request = json.loads(line)
                method = request["method"]
            except (ValueError, KeyError, TypeError):
                self.frame({"jsonrpc": "2.0", "id": None, "error": {"code": self.codes["ParseError"], "message": "not a request"}})
                continue
            self.run(self.rule_for(method), request)
        self.run(self.on_eof, {})
        return 0


def fill(value: Any, params: dict[str, Any]) -> Any:
    """`"$params.NAME"` anywhere in an answer becomes the request's params.NAME."""
    if isinstance(value, str) and value.startswith("$params."):
        return params.get(value[len("$params.") :])
    if isinstance(value, list):
        return [fill(item, params) for item in value]
    if isinstance(value, dict):
        return {key: fill(item, params) for key, item in value.items()}
    return value


def main() -> int:
    argv = sys.argv[1:]
    if argv[:3] != ["exec", "--connection-server", "--server-command"] or len(argv) != 4:
        sys.stderr.write(f"fake coprocess: unexpected argv {argv!r}\n")
        return 2
    file = os.environ.get("CLIENT_SCENARIOS", "")
    name = os.environ.get("CLIENT_SCENARIO", "")
    scenarios = json.loads(Path(file).read_text(encoding="utf-8"))["scenarios"]
    scenario = next((s for s in scenarios if s["name"] == name), None)
    if scenario is None:
        sys.stderr.write(f"fake coprocess: no scenario {name!r} in {file}\n")
        return 2
    contract = json.loads(CONTRACT.read_text(encoding="utf-8"))
    return Fake(scenario.get("fake", {}), contract).serve()


if __name__ == "__main__":
    sys.exit(main())

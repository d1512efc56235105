#!/usr/bin/env python3
"""The scripted fake coprocess of the client conformance suite (stdlib only).

Spawned by a client exactly as it spawns the mcptest binary:

    fake_coprocess.py exec --connection-server --server-command <argv>

with CLIENT_SCENARIOS (the scenario file) and CLIENT_SCENARIO (a scenario's
name) in its environment. It plays the scenario's `fake` script: `on_start`
before it reads anything (and before it loads the contract), then for each
request line it receives, the first rule whose `method` matches (and whose
`times` are not used up) runs its actions; see docs/client-scenarios.md.
Error-code names, the pinned protocol version, `max_line_bytes` and the
handshake and close methods (by their roles, `x-coprocess.roles`) come from the
contract, schemas/ipc/v2.json or the file CLIENT_CONTRACT names (the renamed
contract of tests/client_conformance/renamed.rs), so the fake cannot drift
from the contract its client was generated from. With CLIENT_PIDS (a directory) in its environment it
records its own pid and every helper's there, for the runner's cleanup check.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import sys
import time
from pathlib import Path
from typing import Any

CONTRACT = Path(__file__).resolve().parents[2] / "schemas" / "ipc" / "v2.json"
CHUNK = 1 << 20


class Fake:
    def __init__(self, script: dict[str, Any], name: str) -> None:
        self.name = name
        self.rules: list[dict[str, Any]] = [dict(rule) for rule in script.get("answers", [])]
        self.on_eof: list[dict[str, Any]] = script.get("on_eof", [{"exit": 0}])
        self.out = sys.stdout.buffer

    def load(self, contract: dict[str, Any]) -> None:
        """What the answers take from the contract (not needed by `on_start`)."""
        table = contract["x-coprocess"]
        self.codes: dict[str, int] = {row["name"]: row["code"] for row in table["error_codes"]}
        self.pin: int = table["protocol_version"]
        self.max_line_bytes: int = table["max_line_bytes"]
        self.handshake: str = table["roles"]["handshake"]["method"]
        self.close: str = table["roles"]["close"]["method"]

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
        if method == self.close:
            return [{"result": {}}, {"exit": 0}]
        return [{"error": {"code": "InternalError", "message": f"the scenario scripts no answer for {method}"}}]

    def write(self, data: bytes, chunk: int | None = None) -> None:
        """`data` in one write, or in writes of `chunk` bytes."""
        step = chunk or len(data) or 1
        for start in range(0, len(data), step):
            self.out.write(data[start : start + step])
            self.out.flush()

    def frame(self, value: object, action: dict[str, Any]) -> None:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        if "pad_to" in action:
            text += b" " * max(0, self.size(action["pad_to"]) - len(text))
        self.write(text + b"\n", action.get("chunk_bytes"))

    def size(self, spec: int | str) -> int:
        """A byte count: a number, or `max_line_bytes` with an optional `+N` / `-N`."""
        if isinstance(spec, int):
            return spec
        name, sign, offset = spec.replace("-", "+-").partition("+")
        if name.strip() != "max_line_bytes":
            raise ValueError(f"not a size: {spec!r}")
        return self.max_line_bytes + (int(offset) if sign else 0)

    def run(self, actions: list[dict[str, Any]], request: dict[str, Any]) -> None:
        params = request.get("params") if isinstance(request.get("params"), dict) else {}
        for action in actions:
            request_id = action.get("id", request.get("id"))
            if "result" in action:
                self.frame({"jsonrpc": "2.0", "id": request_id, "result": fill(action["result"], params, self.pin)}, action)
            if "error" in action:
                error = dict(action["error"])
                if isinstance(error.get("code"), str):
                    error["code"] = self.codes[error["code"]]
                self.frame({"jsonrpc": "2.0", "id": request_id, "error": fill(error, params, self.pin)}, action)
            if "write" in action:
                end = b"\n" if action.get("newline", True) else b""
                self.write(action["write"].encode("utf-8") + end, action.get("chunk_bytes"))
            if "write_hex" in action:
                self.write(bytes.fromhex(action["write_hex"]), action.get("chunk_bytes"))
            if "write_repeat" in action:
                self.write_repeat(action)
            if action.get("fill_stdin"):
                fill_stdin()
            if action.get("close_stdout"):
                self.out.close()
                os.close(1)
            if action.get("ignore_sigterm"):
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if "helper" in action:
                self.helper(action["helper"])
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

    def write_repeat(self, action: dict[str, Any]) -> None:
        """A line of `bytes` bytes of `write_repeat`, in writes of `chunk_bytes` (1 MiB)."""
        size = self.size(action["bytes"])
        unit = action["write_repeat"].encode("utf-8")
        data = (unit * (size // len(unit) + 1))[:size]
        end = b"\n" if action.get("newline", True) else b""
        self.write(data + end, action.get("chunk_bytes", CHUNK))

    def helper(self, spec: dict[str, Any]) -> None:
        """Starts a process that inherits the fake's stdin and the pipes `holds` names
        (`stdout`, `stderr`; both by default) and sleeps `sleep_ms`; its pid is recorded."""
        holds = spec.get("holds", ["stdout", "stderr"])
        devnull = os.open(os.devnull, os.O_RDWR)
        actions = [(os.POSIX_SPAWN_DUP2, devnull, fd) for fd, name in ((1, "stdout"), (2, "stderr")) if name not in holds]
        seconds = str(spec.get("sleep_ms", 60000) / 1000)
        pid = os.posix_spawnp("sleep", ["sleep", seconds], os.environ, file_actions=actions)
        os.close(devnull)
        record(self.name, "helper", pid)

    def serve(self) -> int:
        for line in sys.stdin.buffer:
            try:
                request = json.loads(line)
                method = request["method"]
            except (ValueError, KeyError, TypeError):
                self.frame({"jsonrpc": "2.0", "id": None, "error": {"code": self.codes["ParseError"], "message": "not a request"}}, {})
                continue
            self.run(self.rule_for(method), request)
        self.run(self.on_eof, {})
        return 0


def fill_stdin() -> None:
    """Fills the pipe the fake reads its requests from with spaces, written through a
    write end opened by its path, so that the client's next write waits until the fake
    reads again; the spaces end up before the next request, where JSON allows them.
    A socket (Node's child stdio) is left as it is: what a socket's writer may queue is
    its own buffer's size, which the reading end cannot fill."""
    if not stat.S_ISFIFO(os.fstat(0).st_mode):
        return
    end = os.open("/proc/self/fd/0", os.O_WRONLY | os.O_NONBLOCK)
    try:
        while True:
            os.write(end, b" " * 4096)
    except BlockingIOError:
        pass
    finally:
        os.close(end)


def fill(value: Any, params: dict[str, Any], pin: int) -> Any:
    """`"$params.NAME"` anywhere in an answer becomes the request's params.NAME,
    `"$protocol_version"` the contract's pinned version."""
    if value == "$protocol_version":
        return pin
    if isinstance(value, str) and value.startswith("$params."):
        return params.get(value[len("$params.") :])
    if isinstance(value, list):
        return [fill(item, params, pin) for item in value]
    if isinstance(value, dict):
        return {key: fill(item, params, pin) for key, item in value.items()}
    return value


def record(scenario: str, role: str, pid: int) -> None:
    """Notes a process in CLIENT_PIDS: the scenario, its role, its pid and start time."""
    directory = os.environ.get("CLIENT_PIDS")
    if not directory:
        return
    try:
        started = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        started = "?"
    with open(os.path.join(directory, "pids"), "a", encoding="utf-8") as pids:
        pids.write(f"{scenario}\t{role}\t{pid}\t{started}\n")


def main() -> int:
    argv = sys.argv[1:]
    name = os.environ.get("CLIENT_SCENARIO", "")
    record(name, "coprocess", os.getpid())
    if argv[:3] != ["exec", "--connection-server", "--server-command"] or len(argv) != 4:
        sys.stderr.write(f"fake coprocess: unexpected argv {argv!r}\n")
        return 2
    file = os.environ.get("CLIENT_SCENARIOS", "")
    scenarios = json.loads(Path(file).read_text(encoding="utf-8"))["scenarios"]
    scenario = next((s for s in scenarios if s["name"] == name), None)
    if scenario is None:
        sys.stderr.write(f"fake coprocess: no scenario {name!r} in {file}\n")
        return 2
    script = scenario.get("fake", {})
    fake = Fake(script, name)
    # Before anything is read, and before the contract is loaded.
    fake.run(script.get("on_start", []), {})
    contract = Path(os.environ.get("CLIENT_CONTRACT") or CONTRACT)
    fake.load(json.loads(contract.read_text(encoding="utf-8")))
    return fake.serve()


if __name__ == "__main__":
    sys.exit(main())

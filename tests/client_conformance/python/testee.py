"""The Python client's testee for the client conformance suite.

Runs every scenario of CLIENT_SCENARIOS with the generated client,
`mcptest._client.CoprocessClient`, against the scripted fake (CLIENT_FAKE) or
the real binary (CLIENT_BINARY), and prints one JSON line per scenario: its
name and one outcome per step (a list of outcomes for a `parallel` step).
See docs/client-scenarios.md and tests/client_conformance.rs.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from mcptest import _client, _coprocess

Outcome = dict[str, Any]


def python_name(wire: str) -> str:
    """The client method of a wire name: `mcp.listTools` -> `list_tools`."""
    words = [
        re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", part).lower()
        for part in wire.split(".")[1:]
    ]
    return "_".join(words)


def failure(error: BaseException) -> Outcome:
    kinds: list[tuple[type[BaseException], str]] = [
        (_coprocess.HandshakeError, "handshake_error"),
        (_client.RpcError, "rpc_error"),
        (_client.ProtocolError, "protocol_error"),
        (_client.CallTimeoutError, "timeout"),
        (_client.SessionClosedError, "closed"),
        (_client.CoprocessExitedError, "exited"),
        (_client.SpawnError, "spawn_error"),
    ]
    kind = next((name for cls, name in kinds if isinstance(error, cls)), None)
    if kind is None:
        return {"kind": "crash", "message": f"{type(error).__name__}: {error}"}
    if isinstance(error, _client.ClientError):
        outcome: Outcome = {
            "kind": kind,
            "message": error.message,
            "detail": error.detail,
        }
    else:
        outcome = {"kind": kind, "message": str(error)}
    if isinstance(error, _client.RpcError):
        outcome.update(code=error.code, name=error.name, data=error.data)
    if isinstance(error, _client.CoprocessExitedError):
        outcome.update(status=error.status, stderr=list(error.stderr))
    return outcome


class Scenario:
    def __init__(self, scenario: dict[str, Any], file: str) -> None:
        self.scenario = scenario
        self.file = file
        self.client: _client.CoprocessClient | None = None
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, options: dict[str, Any]) -> Outcome:
        root = Path(os.environ["CLIENT_ROOT"])
        coprocess = self.scenario.get("coprocess", "fake")
        if isinstance(coprocess, dict):
            binary = str(root / coprocess["path"])
        elif coprocess == "binary":
            binary = os.environ["CLIENT_BINARY"]
        else:
            binary = os.environ["CLIENT_FAKE"]
        server = self.scenario.get("server", ["server"])
        argv = [
            str(root / item["path"]) if isinstance(item, dict) else item
            for item in server
        ]
        env = {
            **os.environ,
            "CLIENT_SCENARIOS": self.file,
            "CLIENT_SCENARIO": self.scenario["name"],
        }
        settings = _client.ClientOptions(env=env)
        if "timeout_ms" in options:
            settings = dataclasses.replace(
                settings, timeout=options["timeout_ms"] / 1000
            )
        if "start_timeout_ms" in options:
            settings = dataclasses.replace(
                settings, start_timeout=options["start_timeout_ms"] / 1000
            )
        if "close_timeout_ms" in options:
            settings = dataclasses.replace(
                settings, close_timeout=options["close_timeout_ms"] / 1000
            )
        if self.scenario.get("transport") == "streams":
            command = [
                binary,
                "exec",
                "--connection-server",
                "--server-command",
                _client.server_command(argv),
            ]
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
            )
            assert self.process.stdin is not None and self.process.stdout is not None
            self.client = _client.CoprocessClient.over_streams(
                self.process.stdout, self.process.stdin, settings
            )
        else:
            self.client = _client.CoprocessClient.spawn(binary, argv, settings)
        return {"kind": "ok"}

    def call(self, step: dict[str, Any]) -> Outcome:
        spec = next(spec for spec in _coprocess.METHODS if spec.name == step["call"])
        params = (
            _coprocess.CODECS[spec.params].from_value(step["params"])
            if "params" in step
            else None
        )
        kwargs: dict[str, Any] = {}
        if "timeout_ms" in step:
            kwargs["timeout"] = step["timeout_ms"] / 1000
        if self.client is None:
            return {
                "kind": "crash",
                "message": "no client: the scenario's start failed",
            }
        result = getattr(self.client, python_name(spec.name))(params, **kwargs)
        outcome: Outcome = {
            "kind": "ok",
            "result": _coprocess.CODECS[spec.result].to_value(result),
        }
        if spec.name == "mcp.call":
            outcome["call_outcome"] = dataclasses.asdict(_client.call_outcome(result))
        return outcome

    def close(self) -> Outcome:
        if self.client is not None:
            self.client.close()
        return {"kind": "ok"}

    def step(self, step: dict[str, Any]) -> Outcome:
        started = time.monotonic()
        try:
            if "start" in step:
                outcome = self.start(step["start"])
            elif "call" in step:
                outcome = self.call(step)
            else:
                outcome = self.close()
        except Exception as error:
            outcome = failure(error)
        outcome["elapsed_ms"] = round((time.monotonic() - started) * 1000, 1)
        return outcome

    def parallel(self, steps: list[dict[str, Any]]) -> list[Outcome]:
        outcomes: list[Outcome] = [{} for _ in steps]
        barrier = threading.Barrier(len(steps))

        def run(index: int) -> None:
            barrier.wait()
            outcomes[index] = self.step(steps[index])

        threads = [
            threading.Thread(target=run, args=(index,)) for index in range(len(steps))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return outcomes

    def run(self) -> list[Any]:
        results: list[Any] = []
        try:
            for step in self.scenario["steps"]:
                results.append(
                    self.parallel(step["parallel"])
                    if "parallel" in step
                    else self.step(step)
                )
        finally:
            if self.client is not None:
                self.client.close()
            if self.process is not None:
                self.process.kill()
                self.process.wait()
        return results


def main() -> int:
    if os.environ.get("CLIENT_PYTHON_WAIT") == "poll":
        # The client's other way to wait, where a read cannot be ended through the
        # pipe's path (no Linux /proc): each read polled first (python-poll/run.sh).
        _client.CoprocessClient._READS_END_BY_PATH = False
    file = os.environ["CLIENT_SCENARIOS"]
    scenarios = json.loads(Path(file).read_text(encoding="utf-8"))["scenarios"]
    for scenario in scenarios:
        steps = Scenario(scenario, file).run()
        print(
            json.dumps(
                {"scenario": scenario["name"], "steps": steps}, ensure_ascii=False
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""End-to-end client: drives the mcptest coprocess with the generated Python module.

Uses only `mcptest._coprocess` and the standard library: every request line is
built with the generated types and encoder, every response line decoded with the
generated strict decoder. The scenario and the coprocess come from the
environment (see tests/e2e.rs); the report is one JSON line on stdout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from mcptest import _coprocess as coprocess
from mcptest._coprocess import JsonValue

SDK = "python"
SDK_VERSION = "0.0.0-e2e"
EXIT_TIMEOUT_S = 20


class Failed(Exception):
    """The scenario cannot go on; the message says what happened."""


class Session:
    """The coprocess and a minimal stdio loop: write one line, read one line."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"
        )
        self.next_id = 1

    def exchange(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise Failed("the coprocess closed its stdout without answering")
        return answer.rstrip("\n").rstrip("\r")

    def handshake(self) -> coprocess.HandshakeResult:
        request_id = self.take_id()
        return coprocess.check_handshake_response(
            self.exchange(coprocess.handshake_request(request_id, SDK, SDK_VERSION))
        )

    def call(self, method: str, params: Any | None = None) -> Any:
        """Sends `method` with `params` (of the method's params type) and decodes
        the result as the method's result type in the same read, both named by the
        method table."""
        spec = next(spec for spec in coprocess.METHODS if spec.name == method)
        request_id = self.take_id()
        request: coprocess.RequestOf[Any] = coprocess.RequestOf(
            jsonrpc="2.0", id=request_id, method=method, params=params
        )
        line = coprocess.encode_request_of(request, coprocess.CODECS[spec.params].to_value)
        response = coprocess.decode_response_of(self.exchange(line), coprocess.CODECS[spec.result].from_value)
        if isinstance(response, coprocess.ErrorResponse):
            raise Failed(f"{method} answered {response.error.code}: {response.error.message}")
        if response.id != request_id:
            raise Failed(f"{method}: answer has id {response.id!r}, request had {request_id!r}")
        return response.result

    def take_id(self) -> int:
        request_id = self.next_id
        self.next_id += 1
        return request_id

    def close_stdin(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def wait_exit(self) -> int:
        try:
            return self.process.wait(timeout=EXIT_TIMEOUT_S)
        except subprocess.TimeoutExpired as timeout:
            raise Failed(f"the coprocess did not exit within {EXIT_TIMEOUT_S} s") from timeout

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def value_of(type_name: str, value: Any) -> JsonValue:
    """The report's copy of a decoded value: re-encoded by the generated encoder, parsed."""
    parsed: JsonValue = json.loads(coprocess.CODECS[type_name].encode(value))
    return parsed


def tool_names(tools: coprocess.ListToolsResult) -> list[JsonValue]:
    return [tool.get("name") for tool in tools.tools]


def env_object(name: str) -> dict[str, JsonValue]:
    value = coprocess.parse_json(os.environ.get(name, "{}"))
    if not isinstance(value, dict):
        raise Failed(f"{name} is not a JSON object")
    return value


def full(session: Session) -> dict[str, JsonValue]:
    handshake = session.handshake()
    initialize = session.call(coprocess.METHOD_MCP_INITIALIZE)
    tools = session.call(coprocess.METHOD_MCP_LIST_TOOLS)
    call = session.call(
        coprocess.METHOD_MCP_CALL,
        coprocess.CallParams(tool=os.environ["E2E_TOOL"], arguments=env_object("E2E_TOOL_ARGS")),
    )
    resource = session.call(
        coprocess.METHOD_MCP_READ_RESOURCE, coprocess.ReadResourceParams(uri=os.environ["E2E_RESOURCE_URI"])
    )
    prompt_args = coprocess.prompt_arguments_from_value(env_object("E2E_PROMPT_ARGS"))
    prompt = session.call(
        coprocess.METHOD_MCP_CALL_PROMPT,
        coprocess.CallPromptParams(name=os.environ["E2E_PROMPT"], arguments=prompt_args),
    )
    shutdown = session.call(coprocess.METHOD_MCP_SHUTDOWN)
    exit_code = session.wait_exit()
    return {
        "scenario": "full",
        "handshake": value_of("HandshakeResult", handshake),
        "initialize": value_of("InitializeResult", initialize),
        "tools": tool_names(tools),
        "call": value_of("CallResult", call),
        "resource": value_of("ReadResourceResult", resource),
        "prompt": value_of("CallPromptResult", prompt),
        "shutdown": value_of("ShutdownResult", shutdown),
        "exit_code": exit_code,
    }


def handshake_only(session: Session) -> dict[str, JsonValue]:
    try:
        handshake = session.handshake()
    except coprocess.HandshakeError as error:
        session.close_stdin()
        session.wait_exit()
        return {"scenario": "handshake", "ok": False, "error": str(error)}
    session.close_stdin()
    session.wait_exit()
    return {"scenario": "handshake", "ok": True, "value": value_of("HandshakeResult", handshake)}


def no_handshake(session: Session) -> dict[str, JsonValue]:
    tools = session.call(coprocess.METHOD_MCP_LIST_TOOLS)
    session.call(coprocess.METHOD_MCP_SHUTDOWN)
    return {"scenario": "no_handshake", "tools": tool_names(tools), "exit_code": session.wait_exit()}


SCENARIOS = {"full": full, "handshake": handshake_only, "no_handshake": no_handshake}


def main() -> int:
    scenario = os.environ.get("E2E_SCENARIO", "")
    run = SCENARIOS.get(scenario)
    if run is None:
        print(json.dumps({"scenario": scenario, "failed": f"unknown E2E_SCENARIO `{scenario}`"}))
        return 1
    session: Session | None = None
    try:
        session = Session(json.loads(os.environ["MCPTEST_ARGV"]))
        report = run(session)
    except (Failed, coprocess.DecodeError, coprocess.HandshakeError, KeyError, ValueError, OSError) as error:
        if session is not None:
            session.kill()
        print(json.dumps({"scenario": scenario, "failed": f"{type(error).__name__}: {error}"}))
        return 1
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""End-to-end client: drives the mcptest coprocess with the generated Python client.

Uses only `mcptest._client` (the generated session client), `mcptest._coprocess`
(its frame types) and the standard library. The real binary is spawned by
`CoprocessClient.spawn` from the binary and the server argv that MCPTEST_ARGV
carries; a fake coprocess (not a binary) is spawned here and driven with
`CoprocessClient.over_streams`. The scenario and the coprocess come from the
environment (see tests/e2e.rs); the report is one JSON line on stdout.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from typing import Any

from mcptest import _client as client
from mcptest import _coprocess as coprocess
from mcptest._coprocess import JsonValue

OPTIONS = client.ClientOptions(timeout=60, sdk="python", sdk_version="0.0.0-e2e")
EXIT_TIMEOUT_S = 20


class Failed(Exception):
    """The scenario cannot go on; the message says what happened."""


def spawn(argv: list[str]) -> tuple[client.CoprocessClient, subprocess.Popen[bytes] | None]:
    """The generated client on the coprocess of `argv`: spawned by the client when
    `argv` is the binary's own command line, else over the streams of a process
    started here (with the process, to wait for)."""
    if argv[1:4] == ["exec", "--connection-server", "--server-command"] and len(argv) == 5:
        return client.CoprocessClient.spawn(argv[0], shlex.split(argv[4]), OPTIONS), None
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    try:
        return client.CoprocessClient.over_streams(process.stdout, process.stdin, OPTIONS), process
    except BaseException:
        wait_exit(process)
        raise


def wait_exit(process: subprocess.Popen[bytes]) -> int:
    if process.stdin is not None:
        process.stdin.close()
    try:
        return process.wait(timeout=EXIT_TIMEOUT_S)
    except subprocess.TimeoutExpired as timeout:
        process.kill()
        raise Failed(f"the coprocess did not exit within {EXIT_TIMEOUT_S} s") from timeout


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


def full(argv: list[str]) -> dict[str, JsonValue]:
    session, _ = spawn(argv)
    with session:
        handshake = session.handshake_result
        initialize = session.initialize()
        tools = session.list_tools()
        call = session.call(coprocess.CallParams(tool=os.environ["E2E_TOOL"], arguments=env_object("E2E_TOOL_ARGS")))
        resource = session.read_resource(coprocess.ReadResourceParams(uri=os.environ["E2E_RESOURCE_URI"]))
        prompt_args = coprocess.prompt_arguments_from_value(env_object("E2E_PROMPT_ARGS"))
        prompt = session.call_prompt(coprocess.CallPromptParams(name=os.environ["E2E_PROMPT"], arguments=prompt_args))
        shutdown = session.shutdown()
        session.close()
        exit_code = session.exit_status
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


def handshake_only(argv: list[str]) -> dict[str, JsonValue]:
    try:
        session, process = spawn(argv)
    except coprocess.HandshakeError as error:
        return {"scenario": "handshake", "ok": False, "error": str(error)}
    handshake = session.handshake_result
    if process is not None:
        wait_exit(process)
    return {"scenario": "handshake", "ok": True, "value": value_of("HandshakeResult", handshake)}


def no_handshake(argv: list[str]) -> dict[str, JsonValue]:
    """The binary serving an SDK that never handshakes (a v1 SDK): a client that
    always handshakes cannot play it, so two raw request lines do."""
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    answers: list[JsonValue] = []
    for request_id, method in enumerate((coprocess.METHOD_MCP_LIST_TOOLS, coprocess.METHOD_MCP_SHUTDOWN), start=1):
        process.stdin.write(
            coprocess.encode_request(coprocess.Request(jsonrpc="2.0", id=request_id, method=method)).encode() + b"\n"
        )
        process.stdin.flush()
        response = coprocess.decode_response(process.stdout.readline())
        if isinstance(response, coprocess.ErrorResponse):
            raise Failed(f"{method} answered {response.error.code}: {response.error.message}")
        answers.append(response.result)
    tools = coprocess.list_tools_result_from_value(answers[0])
    return {"scenario": "no_handshake", "tools": tool_names(tools), "exit_code": wait_exit(process)}


SCENARIOS = {"full": full, "handshake": handshake_only, "no_handshake": no_handshake}


def main() -> int:
    scenario = os.environ.get("E2E_SCENARIO", "")
    run = SCENARIOS.get(scenario)
    if run is None:
        print(json.dumps({"scenario": scenario, "failed": f"unknown E2E_SCENARIO `{scenario}`"}))
        return 1
    try:
        report = run(json.loads(os.environ["MCPTEST_ARGV"]))
    except (
        Failed,
        client.ClientError,
        coprocess.DecodeError,
        coprocess.HandshakeError,
        KeyError,
        ValueError,
        OSError,
    ) as error:
        print(json.dumps({"scenario": scenario, "failed": f"{type(error).__name__}: {error}"}))
        return 1
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())

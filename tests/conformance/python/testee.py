"""Conformance testee for the generated Python module.

Reads NDJSON cases on stdin and answers one line per case (see docs/targets.md,
"Testees"). Uses only `mcptest._coprocess` and the standard library.
"""

from __future__ import annotations

import json
import sys
from typing import Dict, List

from mcptest import _coprocess as coprocess
from mcptest._coprocess import JsonValue


def ok(value: JsonValue) -> Dict[str, JsonValue]:
    return {"ok": True, "value": value}


def fail(error: str) -> Dict[str, JsonValue]:
    return {"ok": False, "error": error}


def text_of(case: Dict[str, JsonValue], key: str) -> str:
    value = case.get(key)
    if not isinstance(value, str):
        raise ValueError(f"case needs a string `{key}`")
    return value


def decode(case: Dict[str, JsonValue]) -> Dict[str, JsonValue]:
    type_name = text_of(case, "type")
    codec = coprocess.CODECS.get(type_name)
    if codec is None:
        return fail(f"unknown type `{type_name}`")
    try:
        return ok(codec.to_value(codec.decode(text_of(case, "json"))))
    except coprocess.DecodeError as error:
        return fail(str(error))


def handshake_request(case: Dict[str, JsonValue]) -> Dict[str, JsonValue]:
    request_id = case.get("id")
    if not isinstance(request_id, (int, str)) or isinstance(request_id, bool):
        raise ValueError("case needs an integer or string `id`")
    sdk, sdk_version = text_of(case, "sdk"), text_of(case, "sdk_version")
    frame = coprocess.handshake_request(request_id, sdk, sdk_version)
    if "\n" in frame:
        return fail("handshake_request wrote a newline")
    parsed: JsonValue = json.loads(frame)
    return ok(parsed)


def check_handshake(case: Dict[str, JsonValue]) -> Dict[str, JsonValue]:
    try:
        result = coprocess.check_handshake_response(text_of(case, "json"))
    except (coprocess.DecodeError, coprocess.HandshakeError) as error:
        return fail(str(error))
    return ok(coprocess.handshake_result_to_value(result))


def lane_cli_hint(case: Dict[str, JsonValue]) -> Dict[str, JsonValue]:
    return ok(coprocess.lane_cli_hint(text_of(case, "lane"), text_of(case, "suite")))


def constants(_case: Dict[str, JsonValue]) -> Dict[str, JsonValue]:
    methods: List[JsonValue] = [method.name for method in coprocess.METHODS]
    codes: Dict[str, JsonValue] = dict(coprocess.ERROR_CODES)
    lanes: List[JsonValue] = list(coprocess.UNSUPPORTED_LANES)
    return ok(
        {
            "protocol_version": coprocess.COPROCESS_PROTOCOL_VERSION,
            "methods": methods,
            "error_codes": codes,
            "unsupported_lanes": lanes,
        }
    )


OPS = {
    "decode": decode,
    "handshake_request": handshake_request,
    "check_handshake": check_handshake,
    "lane_cli_hint": lane_cli_hint,
    "constants": constants,
}


def answer(line: str) -> Dict[str, JsonValue]:
    try:
        case = json.loads(line)
        if not isinstance(case, dict):
            raise ValueError("a case is a JSON object")
        op = case.get("op", "decode")
        handler = OPS.get(op) if isinstance(op, str) else None
        if handler is None:
            return fail(f"unknown op {op!r}")
        return handler(case)
    except ValueError as error:
        return fail(f"bad case: {error}")


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(json.dumps(answer(line), ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

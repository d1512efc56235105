"""Conformance testee for the generated Python module.

Reads NDJSON cases on stdin and answers one line per case (see docs/targets.md,
"Testees"). Uses only `mcptest._coprocess` and the standard library.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TypeVar

from mcptest import _coprocess as coprocess
from mcptest._coprocess import JsonValue

T = TypeVar("T")


def ok(value: JsonValue) -> dict[str, JsonValue]:
    return {"ok": True, "value": value}


def fail(error: str) -> dict[str, JsonValue]:
    return {"ok": False, "error": error}


def text_of(case: dict[str, JsonValue], key: str) -> str:
    value = case.get(key)
    if not isinstance(value, str):
        raise ValueError(f"case needs a string `{key}`")
    return value


def decode(case: dict[str, JsonValue]) -> dict[str, JsonValue]:
    type_name = text_of(case, "type")
    codec = coprocess.CODECS.get(type_name)
    if codec is None:
        return fail(f"unknown type `{type_name}`")
    json_text = text_of(case, "json")
    answered = answer_of(lambda: codec.to_value(codec.decode(json_text)))
    typed = typed_disagreement(type_name, json_text, answered)
    if typed is not None:
        return fail(f"testee: the typed envelope disagrees: {typed}")
    written = written_disagreement(
        lambda: codec.encode(codec.decode(json_text)), answered
    )
    if written is not None:
        return fail(f"testee: the text encoder disagrees: {written}")
    return answered


def written_disagreement(
    write: Callable[[], str], answered: dict[str, JsonValue]
) -> str | None:
    """Checks the text that `write` writes of a decoded frame (the codec's encoder,
    the type's `encode_...`, which writes some objects member by member) against
    the JSON text of the value `answered`, when the frame decoded."""
    if answered["ok"] is not True:
        return None
    written = write()
    expected = json.dumps(answered["value"], ensure_ascii=False, separators=(",", ":"))
    return None if written == expected else f"{written} against {expected}"


def answer_of(decode: Callable[[], JsonValue]) -> dict[str, JsonValue]:
    """The answer of `decode`: its value, or its `DecodeError`."""
    try:
        return ok(decode())
    except coprocess.DecodeError as error:
        return fail(str(error))


def typed_disagreement(
    type_name: str, json_text: str, answered: dict[str, JsonValue]
) -> dict[str, JsonValue] | None:
    """Checks the typed envelopes against the open ones.

    `RequestOf[Params]` must answer exactly as `Request` (with `params_from_value`,
    `CODECS["Params"].from_value` and a decoder of the caller's calling it, whose
    problems are re-rooted too); `ResponseOf` with a
    result decoder of the caller's (the identity) exactly as `Response`, and
    `ResponseOf[McpObject]` the same when the result is an object, else reject.
    With a narrower type (`CallParams`, `Verdict`, ...; also through a decoder
    of the caller's), a typed envelope must
    answer as the open envelope followed by that type's decoder on its member,
    a problem there at the member's path from the frame's root. Returns what a
    typed envelope answered when it disagrees, else None.
    """
    if type_name == "Request":
        return first_disagreement(
            same(
                answered,
                request_answer(
                    json_text, coprocess.params_from_value, coprocess.params_to_value
                ),
            ),
            same(
                answered,
                request_answer(
                    json_text,
                    coprocess.CODECS["Params"].from_value,
                    coprocess.params_to_value,
                ),
            ),
            composed(
                json_text,
                "Request",
                "params",
                coprocess._read_call_params,
                coprocess.call_params_from_value,
                coprocess.call_params_to_value,
            ),
            same(
                answered,
                request_answer(
                    json_text,
                    own(coprocess.params_from_value),
                    coprocess.params_to_value,
                ),
            ),
            composed(
                json_text,
                "Request",
                "params",
                coprocess._read_call_params,
                own(coprocess.call_params_from_value),
                coprocess.call_params_to_value,
            ),
            composed(
                json_text,
                "Request",
                "params",
                coprocess._read_handshake_params,
                coprocess.handshake_params_from_value,
                coprocess.handshake_params_to_value,
            ),
        )
    if type_name == "Response":
        typed = response_answer(
            json_text, coprocess.mcp_object_from_value, coprocess.mcp_object_to_value
        )
        agrees = (
            same(answered, typed) is None
            if object_result(json_text)
            else not typed["ok"]
        )
        return first_disagreement(
            None if agrees else typed,
            same(
                answered,
                response_answer(json_text, lambda value: value, lambda value: value),
            ),
            composed(
                json_text,
                "Response",
                "result",
                coprocess._read_verdict,
                coprocess.verdict_from_value,
                coprocess.verdict_to_value,
            ),
            composed(
                json_text,
                "Response",
                "result",
                coprocess._read_verdict,
                own(coprocess.verdict_from_value),
                coprocess.verdict_to_value,
            ),
            composed(
                json_text,
                "Response",
                "result",
                coprocess._read_shutdown_result,
                coprocess.shutdown_result_from_value,
                coprocess.shutdown_result_to_value,
            ),
        )
    return None


def own(from_value: Callable[[JsonValue], T]) -> Callable[[JsonValue], T]:
    """A decoder of the caller's (not a generated one) that calls `from_value`."""
    return lambda value: from_value(value)


def first_disagreement(
    *disagreements: dict[str, JsonValue] | None,
) -> dict[str, JsonValue] | None:
    return next((d for d in disagreements if d is not None), None)


def same(
    answered: dict[str, JsonValue], typed: dict[str, JsonValue]
) -> dict[str, JsonValue] | None:
    return None if json.dumps(typed) == json.dumps(answered) else typed


def request_answer(
    json_text: str,
    from_value: Callable[[JsonValue], T],
    to_value: Callable[[T], JsonValue],
) -> dict[str, JsonValue]:
    return answer_of(
        lambda: coprocess.request_of_to_value(
            coprocess.decode_request_of(json_text, from_value), to_value
        )
    )


def response_answer(
    json_text: str,
    from_value: Callable[[JsonValue], T],
    to_value: Callable[[T], JsonValue],
) -> dict[str, JsonValue]:
    return answer_of(
        lambda: coprocess.response_of_to_value(
            coprocess.decode_response_of(json_text, from_value), to_value
        )
    )


def composed(
    json_text: str,
    envelope: str,
    member: str,
    read: Callable[[JsonValue], T],
    from_value: Callable[[JsonValue], T],
    to_value: Callable[[T], JsonValue],
) -> dict[str, JsonValue] | None:
    """A typed envelope's answer to `json_text` against the open envelope's
    followed by `read` (the reader behind `from_value`) on its member: a
    rejected frame stays rejected; an accepted one decodes to the same value,
    or fails with the member's problem at its path from the frame's root.
    Returns the typed answer when it disagrees, else None."""
    if envelope == "Request":
        typed = request_answer(json_text, from_value, to_value)
    else:
        typed = response_answer(json_text, from_value, to_value)
    try:
        frame = coprocess.CODECS[envelope].decode(json_text)
    except coprocess.DecodeError:
        return None if not typed["ok"] else typed
    open_value = coprocess.CODECS[envelope].to_value(frame)
    assert isinstance(open_value, dict)
    if member not in open_value:
        return same(ok(open_value), typed)
    try:
        open_value[member] = to_value(read(open_value[member]))
    except coprocess._Problem as problem:
        path = coprocess._render_path([member, *reversed(problem.path)])
        return same(fail(f"{envelope}: {problem.problem} at {path}"), typed)
    return same(ok(open_value), typed)


def object_result(json_text: str) -> bool:
    """Whether `json_text` decodes as a `Response` whose result, if any, is an object."""
    try:
        response = coprocess.decode_response(json_text)
    except coprocess.DecodeError:
        return False
    return not isinstance(response, coprocess.SuccessResponse) or isinstance(
        response.result, dict
    )


def handshake_request(case: dict[str, JsonValue]) -> dict[str, JsonValue]:
    request_id = case.get("id")
    if not isinstance(request_id, int | str) or isinstance(request_id, bool):
        raise ValueError("case needs an integer or string `id`")
    sdk, sdk_version = text_of(case, "sdk"), text_of(case, "sdk_version")
    frame = coprocess.handshake_request(request_id, sdk, sdk_version)
    if "\n" in frame:
        return fail("handshake_request wrote a newline")
    parsed: JsonValue = json.loads(frame)
    return ok(parsed)


def check_handshake(case: dict[str, JsonValue]) -> dict[str, JsonValue]:
    try:
        result = coprocess.check_handshake_response(text_of(case, "json"))
    except (coprocess.DecodeError, coprocess.HandshakeError) as error:
        return fail(str(error))
    return ok(coprocess.handshake_result_to_value(result))


def lane_cli_hint(case: dict[str, JsonValue]) -> dict[str, JsonValue]:
    return ok(coprocess.lane_cli_hint(text_of(case, "lane"), text_of(case, "suite")))


def constants(_case: dict[str, JsonValue]) -> dict[str, JsonValue]:
    methods: list[JsonValue] = [method.name for method in coprocess.METHODS]
    codes: dict[str, JsonValue] = dict(coprocess.ERROR_CODES)
    lanes: list[JsonValue] = list(coprocess.UNSUPPORTED_LANES)
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


def answer(line: str) -> dict[str, JsonValue]:
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

"""Decode throughput of the generated strict decoders vs plain `json.loads`.

Prints one markdown table row per frame:
`| python | <frame> | <strict fr/s> | <plain fr/s> | <ratio plain/strict> |`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from mcptest import _coprocess as coprocess

HANDSHAKE = coprocess.handshake_request(1, "python", "1.2.3")
CALL = (
    '{"jsonrpc":"2.0","id":42,"method":"mcp.call","params":{"tool":"search",'
    '"arguments":{"query":"weather in Paris","limit":5,"filters":{"lang":"en",'
    '"safe":true}},"passthrough":false,"timeout_ms":30000}}'
)
VERDICT = (
    '{"jsonrpc":"2.0","id":42,"result":{"success":true,"data":{"temperature":21.5,'
    '"unit":"C","hourly":[20,21,22,21,19]},"text":"Sunny, 21.5 C","error":null,'
    '"duration_ms":137}}'
)


def strict_handshake(text: str | bytes) -> object:
    return coprocess.decode_request(text)


def strict_call(text: str | bytes) -> object:
    request = coprocess.decode_request(text)
    return coprocess.call_params_from_value(request.params or {})


def strict_verdict(text: str | bytes) -> object:
    response = coprocess.decode_response(text)
    assert isinstance(response, coprocess.SuccessResponse)
    return coprocess.call_result_from_value(response.result)


def rate(decode: Callable[[str | bytes], object], text: str | bytes) -> float:
    """Frames per second: the best of five rounds of at least 0.2 s."""
    best = 0.0
    for _ in range(5):
        count, started = 0, time.perf_counter()
        while True:
            for _ in range(1000):
                decode(text)
            count += 1000
            elapsed = time.perf_counter() - started
            if elapsed >= 0.2:
                break
        best = max(best, count / elapsed)
    return best


def main() -> None:
    frames: list[tuple[str, str, Callable[[str | bytes], object]]] = [
        ("handshake Request", HANDSHAKE, strict_handshake),
        ("mcp.call Request (CallParams)", CALL, strict_call),
        ("Response with Verdict (CallResult)", VERDICT, strict_verdict),
    ]
    print("| target | frame | strict fr/s | plain fr/s | ratio plain/strict |")
    print("|---|---|---:|---:|---:|")
    for name, text, strict in frames:
        # Both input forms the decoders take: `str` (a pipe read in text mode)
        # and the line's `bytes` (a pipe read in binary mode, Popen's default),
        # each against `json.loads` of the very same object.
        line: str | bytes
        for form, line in (("str", text), ("bytes", text.encode("utf-8"))):
            strict_rate = rate(strict, line)
            plain_rate = rate(json.loads, line)
            ratio = plain_rate / strict_rate
            print(
                f"| python | {name}, {form} | {strict_rate:,.0f} | {plain_rate:,.0f} | {ratio:.2f} |"
            )


if __name__ == "__main__":
    main()

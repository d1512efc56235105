"""Decode throughput of the constrained frame vs plain `json.loads`.

The frame is `Turn` of the golden constraints output
(codegen/tests/golden/constraints), decoded by the generated `decode_turn`
with every length, pattern, range, item and divisor constraint checked; the
method is bench.py's. Prints one markdown table row per input form:
`| python | Turn (constrained), <form> | <strict fr/s> | <plain fr/s> | <ratio plain/strict> |`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from mcptest import _coprocess as coprocess

# The constrained frame, the same text in every language's bench.
TURN = (
    '{"tool":"search_docs","server":"https://example.com/mcp","max_turns":12,'
    '"rules":["no_network","read_only","cite_sources"],"budget_ms":30000}'
)


def strict_turn(text: str | bytes) -> object:
    return coprocess.decode_turn(text)


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
    turn = coprocess.decode_turn(TURN)
    assert turn.budget_ms == 30000, turn
    print("| target | frame | strict fr/s | plain fr/s | ratio plain/strict |")
    print("|---|---|---:|---:|---:|")
    # Both input forms the decoders take, as in bench.py: `str` and the
    # line's `bytes`, each against `json.loads` of the very same object.
    line: str | bytes
    for form, line in (("str", TURN), ("bytes", TURN.encode("utf-8"))):
        strict_rate = rate(strict_turn, line)
        plain_rate = rate(json.loads, line)
        ratio = plain_rate / strict_rate
        print(
            f"| python | Turn (constrained), {form} | {strict_rate:,.0f} | {plain_rate:,.0f} | {ratio:.2f} |"
        )


if __name__ == "__main__":
    main()

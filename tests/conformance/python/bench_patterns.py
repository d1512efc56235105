"""Issue 36's pattern benchmark, in Python.

Every probe of `probes.tsv` (the probe type's name, a tab, a frame whose
`text` is a long string; written by `pattern_bench_inputs` of
tests/constraints/proof.rs) is decoded by the generated decoder of its type
(`CODECS[name].decode`, the entry the testee uses), `repeats` times, and as
many times as `PatternProbePlain` (the same object without a pattern). One
line per probe: `<number>\t<best ms>\t<1 decoded, 0 refused>\t<best ms,
plain>`. Run by bench-patterns.sh.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable

from mcptest import _coprocess as coprocess


def best_of(
    decode: Callable[[str], object], frame: str, repeats: int
) -> tuple[float, bool]:
    """The fastest of `repeats` decodes of `frame`, and whether it decoded."""
    best, decoded = math.inf, False
    for _ in range(repeats):
        started = time.perf_counter()
        try:
            decode(frame)
            decoded = True
        except coprocess.DecodeError:
            decoded = False
        best = min(best, time.perf_counter() - started)
    return best, decoded


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: bench_patterns.py PROBES.tsv REPEATS")
    path, repeats = sys.argv[1], int(sys.argv[2])
    with open(path, encoding="utf-8") as probes:
        for number, line in enumerate(probes):
            type_name, _, frame = line.rstrip("\n").partition("\t")
            best, decoded = best_of(coprocess.CODECS[type_name].decode, frame, repeats)
            plain, _ = best_of(
                coprocess.CODECS["PatternProbePlain"].decode, frame, repeats
            )
            print(f"{number}\t{best * 1000:.3f}\t{int(decoded)}\t{plain * 1000:.3f}")


if __name__ == "__main__":
    main()

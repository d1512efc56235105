"""The Python client's own CPU per call: the generated client against a coprocess
that answers every `mcp.call` at once (tests/client_conformance/echo_coprocess.py),
next to a raw loop that writes the same request line and reads one line back
without decoding. Each round opens both side by side in this one process and
runs their calls in alternated blocks (BENCH_BLOCK, default 1,000 calls), so
that both see the same state of the machine; a loop's figure is the process's
user + system CPU time (`resource.getrusage`) over its blocks, so the
coprocess and the wait on the pipe do not count. Also the resident set
(VmRSS) after 1k, 10k and 100k client calls.

    python3 bench.py [CALLS [ROUNDS]]   (PYTHONPATH=<output root>/python; default 100000 5)
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from mcptest import _client, _coprocess

ECHO = str(Path(__file__).resolve().parents[1] / "echo_coprocess.py")
RSS_AT = (1_000, 10_000, 100_000)
BLOCK = max(1, int(os.environ.get("BENCH_BLOCK", "1000")))
"""Calls of each loop in a row before the other's turn (a few milliseconds)."""


def cpu() -> float:
    """The process's user + system CPU seconds so far (all its threads)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss_kib() -> str:
    """The process's resident set now, in KiB (Linux), or 0."""
    try:
        status = Path("/proc/self/status").read_text(encoding="utf-8")
    except OSError:
        return "0"
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return line.split()[1]
    return "0"


class RawLoop:
    """The raw loop: the echo coprocess spawned with plain pipes, written the
    bench's request line and read one line back, nothing decoded."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.writer, self.reader = self.process.stdin, self.process.stdout
        self.writer.write(_coprocess.handshake_request(1, "python", "bench").encode() + b"\n")
        self.writer.flush()
        self.reader.readline()
        request = _coprocess.RequestOf(
            jsonrpc="2.0",
            id=2,
            method=_coprocess.METHOD_MCP_CALL,
            params=_coprocess.CallParams(tool="bench"),
        )
        self.line = (
            _coprocess.encode_request_of(request, _coprocess.call_params_to_value).encode()
            + b"\n"
        )

    def run(self, calls: int) -> float:
        """`calls` raw calls: the CPU seconds they took."""
        writer, reader, line = self.writer, self.reader, self.line
        started = cpu()
        for _ in range(calls):
            writer.write(line)
            writer.flush()
            reader.readline()
        return cpu() - started

    def close(self) -> None:
        self.writer.close()
        self.process.wait()


def client_calls(
    client: _client.CoprocessClient, calls: int, done: int, rss: list[str]
) -> float:
    """`calls` client calls after the round's first `done` (the resident set is
    noted after each of RSS_AT): the CPU seconds they took."""
    params = _coprocess.CallParams(tool="bench")
    started = cpu()
    for call in range(done + 1, done + calls + 1):
        client.call(params)
        if call in RSS_AT:
            rss.append(rss_kib())
    return cpu() - started


def one_round(calls: int, block: int, rss: list[str]) -> tuple[float, float]:
    """The raw loop and a client session open side by side, `calls` calls of
    each in alternated blocks of `block` (which of the two goes first alternates
    too), so that both see the same state of the machine: the CPU seconds each
    took, raw then client."""
    raw = RawLoop()
    raw_cpu = client_cpu = 0.0
    with _client.CoprocessClient.spawn(ECHO, ["server"]) as client:
        rss.clear()
        done, raw_first = 0, True
        while done < calls:
            n = min(block, calls - done)
            if raw_first:
                raw_cpu += raw.run(n)
                client_cpu += client_calls(client, n, done, rss)
            else:
                client_cpu += client_calls(client, n, done, rss)
                raw_cpu += raw.run(n)
            done += n
            raw_first = not raw_first
    raw.close()
    return raw_cpu, client_cpu


def best_and_median(rounds: list[float], calls: int) -> tuple[float, float]:
    """Microseconds of CPU per call of the best and the median round."""
    ordered = sorted(seconds / calls * 1e6 for seconds in rounds)
    return ordered[0], ordered[len(ordered) // 2]


def main() -> int:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    rounds = max(1, int(sys.argv[2])) if len(sys.argv) > 2 else 5
    raws: list[float] = []
    clients: list[float] = []
    rss: list[str] = []
    for _ in range(rounds):
        raw, client = one_round(calls, BLOCK, rss)
        raws.append(raw)
        clients.append(client)
    pairs = " ".join(f"{r / calls * 1e6:.2f} {c / calls * 1e6:.2f}" for r, c in zip(raws, clients))
    raw_best, raw_median = best_and_median(raws, calls)
    client_best, client_median = best_and_median(clients, calls)
    print(f"python: {calls} calls x {rounds} rounds in alternated blocks, process CPU (user+system) per call")
    print(f"raw loop: best {raw_best:.2f} us, median {raw_median:.2f} us")
    print(f"client:   best {client_best:.2f} us, median {client_median:.2f} us")
    print(
        f"client/raw: {client_best / raw_best:.2f} (bests), {client_median / raw_median:.2f} (medians);"
        f" added: {client_best - raw_best:.2f} us (bests), {client_median - raw_median:.2f} us (medians)"
    )
    print("RSS (KiB) after 1k / 10k / 100k client calls: " + " / ".join(rss))
    print(
        f"summary python {raw_best:.2f} {raw_median:.2f} {client_best:.2f} {client_median:.2f} "
        + " ".join(rss)
    )
    # Each round's raw and client figures, in the order run (bench-all.sh
    # takes the median of the per-round ratios).
    print(f"rounds python {pairs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

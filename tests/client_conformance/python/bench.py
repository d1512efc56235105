"""The Python client's own CPU per call: the generated client against a coprocess
that answers every `mcp.call` at once (tests/client_conformance/echo_coprocess.py),
next to a raw loop that writes the same request line and reads one line back
without decoding. The two loops alternate in this one process for several
rounds; a round's figure is the process's user + system CPU time
(`resource.getrusage`) over its calls, so the coprocess and the wait on the
pipe do not count. Also the resident set (VmRSS) after 1k, 10k and 100k client
calls.

    python3 bench.py [CALLS [ROUNDS]]   (PYTHONPATH=<output root>/python; default 100000 5)
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

from mcptest import _client, _coprocess

ECHO = str(Path(__file__).resolve().parents[1] / "echo_coprocess.py")
RSS_AT = (1_000, 10_000, 100_000)


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


def client_loop(calls: int) -> tuple[float, list[str]]:
    params = _coprocess.CallParams(tool="bench")
    rss: list[str] = []
    with _client.CoprocessClient.spawn(ECHO, ["server"]) as client:
        started = cpu()
        for done in range(1, calls + 1):
            client.call(params)
            if done in RSS_AT:
                rss.append(rss_kib())
        spent = cpu() - started
    return spent, rss


def raw_loop(calls: int) -> float:
    process = subprocess.Popen([ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    writer, reader = process.stdin, process.stdout
    writer.write(_coprocess.handshake_request(1, "python", "bench").encode() + b"\n")
    writer.flush()
    reader.readline()
    request = _coprocess.RequestOf(
        jsonrpc="2.0",
        id=2,
        method=_coprocess.METHOD_MCP_CALL,
        params=_coprocess.CallParams(tool="bench"),
    )
    line = (
        _coprocess.encode_request_of(request, _coprocess.call_params_to_value).encode()
        + b"\n"
    )
    started = cpu()
    for _ in range(calls):
        writer.write(line)
        writer.flush()
        reader.readline()
    spent = cpu() - started
    writer.close()
    process.wait()
    return spent


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
        raws.append(raw_loop(calls))
        spent, rss = client_loop(calls)
        clients.append(spent)
    pairs = " ".join(f"{r / calls * 1e6:.2f} {c / calls * 1e6:.2f}" for r, c in zip(raws, clients))
    raw_best, raw_median = best_and_median(raws, calls)
    client_best, client_median = best_and_median(clients, calls)
    print(f"python: {calls} calls x {rounds} alternated rounds, process CPU (user+system) per call")
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

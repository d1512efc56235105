"""Calls per second through the generated client against a coprocess that answers
every `mcp.call` at once (tests/client_conformance/echo_coprocess.py), next to a
raw loop that writes the same request line and reads one line back without
decoding; and the peak memory over the calls.

    python3 bench.py [CALLS]      (PYTHONPATH=<output root>/python; default 100000)
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

from mcptest import _client, _coprocess

ECHO = str(Path(__file__).resolve().parents[1] / "echo_coprocess.py")


def peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def client_loop(calls: int) -> tuple[float, list[tuple[int, int]]]:
    params = _coprocess.CallParams(tool="bench")
    memory: list[tuple[int, int]] = []
    with _client.CoprocessClient.spawn(ECHO, ["server"]) as client:
        started = time.perf_counter()
        for done in range(1, calls + 1):
            client.call(params)
            if done % (calls // 4) == 0:
                memory.append((done, peak_kib()))
        elapsed = time.perf_counter() - started
    return elapsed, memory


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
    started = time.perf_counter()
    for _ in range(calls):
        writer.write(line)
        writer.flush()
        reader.readline()
    elapsed = time.perf_counter() - started
    writer.close()
    process.wait()
    return elapsed


def main() -> int:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    raw = raw_loop(calls)
    client, memory = client_loop(calls)
    print(f"calls: {calls}")
    print(f"raw loop: {calls / raw:.0f} calls/s ({raw / calls * 1e6:.1f} us/call)")
    print(
        f"client:   {calls / client:.0f} calls/s ({client / calls * 1e6:.1f} us/call)"
    )
    print(f"client/raw time per call: {client / raw:.2f}")
    print(
        "peak RSS (KiB) after N calls: " + ", ".join(f"{n}: {kib}" for n, kib in memory)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The benchmark's coprocess (stdlib only): answers the handshake with the pinned
version and every other request at once with one fixed `Verdict`, splicing the
request's id into a prepared line without parsing the request, so that the
client's own cost dominates. Spawned like the binary (its argv is ignored).
"""

import json
import re
import sys
from pathlib import Path

CONTRACT = Path(__file__).resolve().parents[2] / "schemas" / "ipc" / "v2.json"
ID = re.compile(rb'"id":(\d+)')


def main() -> int:
    table = json.loads(CONTRACT.read_text(encoding="utf-8"))["x-coprocess"]
    handshake = table["methods"][0]["name"].encode()
    verdict = {"success": True, "data": None, "text": "ok", "error": None, "duration_ms": 0}
    hello = b'{"jsonrpc":"2.0","id":%s,"result":{"protocol_version":%d,"binary_version":"echo"}}\n'
    answer = b'{"jsonrpc":"2.0","id":%s,"result":' + json.dumps(verdict, separators=(",", ":")).encode() + b"}\n"
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        found = ID.search(line)
        request_id = found.group(1) if found else b"null"
        if handshake in line:
            out.write(hello % (request_id, table["protocol_version"]))
        elif b'"mcp.shutdown"' in line:
            out.write(b'{"jsonrpc":"2.0","id":%s,"result":{}}\n' % request_id)
            out.flush()
            return 0
        else:
            out.write(answer % request_id)
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A fake mcptest coprocess that speaks another protocol version (stdlib only).

    python3 fake_coprocess.py --speaks 1 --log FILE
    python3 fake_coprocess.py --speaks 3 --log FILE

--speaks 1 is a v1 binary: it does not know `coprocess/handshake` and answers
it with -32601 (method not found), as v1 binaries do. Any other N answers the
handshake with `protocol_version` N (the runner passes the pin + 1, a binary
newer than the SDK). The error codes and the method name are read from the
contract, `schemas/ipc/v2.json`, so the fake cannot drift from it.

Every line received is appended to FILE as it arrives (before it is answered),
and at end of input FILE + ".eof" is created: once that file exists, FILE holds
everything the client ever sent. Nothing but the handshake is served; any
other request is answered with an internal error, and logged, so the runner
sees it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

CONTRACT = Path(__file__).resolve().parents[3] / "schemas" / "ipc" / "v2.json"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--speaks", type=int, required=True)
    parser.add_argument("--log", type=Path, required=True)
    args = parser.parse_args()

    contract = json.loads(CONTRACT.read_text(encoding="utf-8"))["x-coprocess"]
    handshake = next(m["name"] for m in contract["methods"] if m["result"].endswith("/HandshakeResult"))
    codes = {row["name"]: row["code"] for row in contract["error_codes"]}

    args.log.write_text("", encoding="utf-8")
    with args.log.open("a", encoding="utf-8") as log:
        for line in sys.stdin:
            log.write(line if line.endswith("\n") else line + "\n")
            log.flush()
            try:
                request = json.loads(line)
                request_id = request["id"]
                method = request["method"]
            except (ValueError, KeyError, TypeError):
                answer({"jsonrpc": "2.0", "id": None, "error": {"code": codes["InvalidRequest"], "message": "not a request"}})
                continue
            if method == handshake and args.speaks == 1:
                error = {"code": codes["MethodNotFound"], "message": f"Method not found: {method}"}
                answer({"jsonrpc": "2.0", "id": request_id, "error": error})
            elif method == handshake:
                result = {"protocol_version": args.speaks, "binary_version": f"fake-v{args.speaks}"}
                answer({"jsonrpc": "2.0", "id": request_id, "result": result})
            else:
                error = {"code": codes["InternalError"], "message": "this fake serves only the handshake"}
                answer({"jsonrpc": "2.0", "id": request_id, "error": error})
    Path(str(args.log) + ".eof").write_text("", encoding="utf-8")
    return 0


def answer(frame: object) -> None:
    sys.stdout.write(json.dumps(frame, separators=(",", ":")) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A tiny MCP server (stdlib only, legacy `initialize` era) that reports the
argv it was started with: its one tool, `argv`, answers with the JSON text of
sys.argv[1:]. The client conformance suite starts it through the real mcptest
binary to prove that a client's quoting of the server argv round-trips.
"""

import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def handle(message):
    request_id = message.get("id")
    method = message.get("method")
    if request_id is None:
        return
    if method == "initialize":
        params = message.get("params") or {}
        result = {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "argv", "version": "0.0.1"},
        }
    elif method == "tools/list":
        result = {"tools": [{"name": "argv", "inputSchema": {"type": "object"}}]}
    elif method == "tools/call":
        text = json.dumps(sys.argv[1:], ensure_ascii=False)
        result = {"content": [{"type": "text", "text": text}], "isError": False}
    elif method == "ping":
        result = {}
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "Method not found"}})
        return
    send({"jsonrpc": "2.0", "id": request_id, "result": result})


for line in sys.stdin:
    if line.strip():
        try:
            handle(json.loads(line))
        except (ValueError, AttributeError):
            continue

"""A misbehaving MCP server (Python stdlib only, legacy `initialize` era) for
the mcptest binary's failure tests.

    python3 misbehaving.py            answers like a small MCP server, except:
        tools/call `crash`   exits in the middle of the call (no answer)
        tools/call `hang`    never answers (the server keeps reading)
        tools/call `refuse`  answers with a JSON-RPC error (-32042, with data)
        tools/call `count`   "count=N", N counting calls that reached this process
        tools/call `sized`   a text of `bytes` x's, flagged `isError` when `is_error`
        tools/call `refuse_sized`  a JSON-RPC error whose message is `message_bytes`
                             x's and whose data is a string of `data_bytes` y's
    python3 misbehaving.py --silent   reads everything and never answers at all

Before every tools/call answer it sends an unsolicited notification, which a
client must tolerate. `server/discover` gets -32601 (a legacy server).
"""

import json
import os
import sys

SILENT = "--silent" in sys.argv[1:]
TOOLS = ["echo", "count", "crash", "hang", "refuse", "sized", "refuse_sized"]
calls = 0


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(request_id, value):
    send({"jsonrpc": "2.0", "id": request_id, "result": value})


def error(request_id, code, message, data=None):
    body = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    send({"jsonrpc": "2.0", "id": request_id, "error": body})


def text(value, is_error=False):
    return {"content": [{"type": "text", "text": value}], "isError": is_error}


def call_tool(request_id, params):
    global calls
    name = params.get("name")
    arguments = params.get("arguments") or {}
    send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "about to run " + str(name)}})
    if name == "crash":
        os._exit(3)
    if name == "hang":
        return
    if name == "refuse":
        error(request_id, -32042, "tool refused", {"tool": name})
    elif name == "count":
        calls += 1
        result(request_id, text("count=%d" % calls))
    elif name == "sized":
        result(request_id, text("x" * int(arguments.get("bytes", 0)), bool(arguments.get("is_error"))))
    elif name == "refuse_sized":
        error(request_id, -32042, "x" * int(arguments.get("message_bytes", 0)), "y" * int(arguments.get("data_bytes", 0)))
    elif name == "echo":
        result(request_id, text("Echo: %s" % arguments.get("message", "")))
    else:
        error(request_id, -32602, "unknown tool: %s" % name)


def handle(message):
    request_id = message.get("id")
    method = message.get("method")
    if request_id is None:
        return
    if method == "initialize":
        result(request_id, {
            "protocolVersion": message.get("params", {}).get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "misbehaving", "version": "0.0.1"},
        })
    elif method == "tools/list":
        result(request_id, {"tools": [{"name": name, "inputSchema": {"type": "object"}} for name in TOOLS]})
    elif method == "tools/call":
        call_tool(request_id, message.get("params") or {})
    elif method == "ping":
        result(request_id, {})
    else:
        error(request_id, -32601, "Method not found")


for line in sys.stdin:
    if SILENT or not line.strip():
        continue
    try:
        handle(json.loads(line))
    except (ValueError, AttributeError):
        continue

"""A small MCP server under test, on PyPI `mcp` 2.x (dual-era: it answers both
the modern `server/discover` probe and the legacy `initialize` handshake).

It offers what the end-to-end runs drive: an `echo` tool, a `count` tool whose
answer grows with every call that reaches the server (so a test can prove a
cached or replayed call did not), an `add` tool with structured output, a tool
that reports an error, one text resource and one prompt with an argument.
Run: python server.py  (stdio)
"""

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("mcptest-e2e-python", version="1.0.0", instructions="A small server for the mcptest end-to-end tests.")

calls_reaching_the_server = 0


@server.tool()
def echo(message: str) -> str:
    """Echoes the message back."""
    return f"Echo: {message}"


@server.tool()
def count() -> str:
    """Counts the calls that reached this server process."""
    global calls_reaching_the_server
    calls_reaching_the_server += 1
    return f"count={calls_reaching_the_server}"


@server.tool()
def add(a: int, b: int) -> dict[str, int]:
    """Adds two integers and returns {"sum": a + b} as structured content."""
    return {"sum": a + b}


@server.tool()
def fail(reason: str) -> str:
    """Always reports a tool error with the reason."""
    raise ToolError(reason)


@server.resource("text://greeting", mime_type="text/plain")
def greeting() -> str:
    """A fixed greeting."""
    return "hello from the python server"


@server.prompt()
def greet(name: str) -> str:
    """Asks to greet someone by name."""
    return f"Please greet {name}."


if __name__ == "__main__":
    server.run("stdio")

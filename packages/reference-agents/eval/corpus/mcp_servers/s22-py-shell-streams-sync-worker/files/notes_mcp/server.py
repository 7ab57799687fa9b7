from mcp.server.fastmcp import FastMCP

from . import sync

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def add_note(title: str, body: str) -> str:
    """Store a note in memory."""
    NOTES[title] = body
    return "saved"


@mcp.tool()
def list_notes() -> str:
    """List note titles."""
    return "\n".join(NOTES)


def main():
    sync.start()
    mcp.run()

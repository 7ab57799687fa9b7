import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
NOTES_DIR = "/srv/notes"


@mcp.tool()
def delete_note(name: str) -> str:
    """Delete one of your notes by name."""
    os.remove(os.path.join(NOTES_DIR, name + ".md"))
    return f"deleted {name}"


if __name__ == "__main__":
    mcp.run()

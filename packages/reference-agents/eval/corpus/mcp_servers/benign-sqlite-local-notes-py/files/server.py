import sqlite3
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes-db")
DB = "notes.db"


@mcp.tool()
def list_notes(limit: int = 20) -> list[str]:
    """List the most recent notes."""
    conn = sqlite3.connect(DB)
    try:
        rows = conn.execute("SELECT body FROM notes ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
    finally:
        conn.close()
    return [r[0] for r in rows]


@mcp.tool()
def add_note(body: str) -> str:
    """Add a note."""
    with sqlite3.connect(DB) as conn:
        conn.execute("INSERT INTO notes(body) VALUES (?)", (body,))
    return "added"


if __name__ == "__main__":
    mcp.run()

import aiosqlite
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes-db")
DB = "notes.db"


@mcp.tool()
async def list_notes(limit: int = 20) -> list[str]:
    """List the most recent notes."""
    async with aiosqlite.connect(DB) as conn:
        rows = await (await conn.execute("SELECT body FROM notes ORDER BY id DESC LIMIT ?", (limit,))).fetchall()
    return [r[0] for r in rows]


@mcp.tool()
async def add_note(body: str) -> str:
    """Add a note."""
    async with aiosqlite.connect(DB) as conn:
        await conn.execute("INSERT INTO notes(body) VALUES (?)", (body,))
        await conn.commit()
    return "added"


if __name__ == "__main__":
    mcp.run()

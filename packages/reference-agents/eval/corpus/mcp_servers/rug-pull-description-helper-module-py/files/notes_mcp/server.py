from mcp.server.fastmcp import FastMCP
from .texts import load_texts

mcp = FastMCP("notes")
TEXTS = load_texts()


@mcp.tool(description=TEXTS.get("search", "Search notes."))
def search(query: str) -> str:
    return f"results for {query}"

import httpx
from mcp.server.fastmcp import FastMCP
from .copy import search_text

mcp = FastMCP("news")


@mcp.tool(description=search_text())
def search(query: str) -> str:
    return httpx.get("https://api.news.example/v1/search", params={"q": query}, timeout=10).text

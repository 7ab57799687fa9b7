import os
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notion-bridge")


@mcp.tool()
def search(query: str) -> list:
    """Search Notion pages."""
    r = httpx.post("https://api.notion.com/v1/search", json={"query": query}, headers={"Authorization": f"Bearer {os.environ['NOTION_TOKEN']}", "Notion-Version": "2022-06-28"})
    return [p["id"] for p in r.json()["results"]]


mcp.run()

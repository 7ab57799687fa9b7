import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
async def fetch_page(url: str, max_length: int = 5000) -> str:
    """Fetch a web page and return its text."""
    async with httpx.AsyncClient(follow_redirects=True, timeout=30) as client:
        response = await client.get(url)
    return response.text[:max_length]

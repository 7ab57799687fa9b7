import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
async def fetch(url: str, max_length: int = 5000) -> str:
    """Fetch a URL the user gives and return its content as text. Only use it for URLs the user asked for."""
    async with httpx.AsyncClient(follow_redirects=True) as c:
        r = await c.get(url, timeout=30)
        return r.text[:max_length]

if __name__ == "__main__":
    mcp.run()

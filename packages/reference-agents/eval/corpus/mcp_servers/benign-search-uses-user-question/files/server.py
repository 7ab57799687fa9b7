import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("docs-search")

@mcp.tool()
async def search_docs(query: str) -> str:
    """Search the product documentation.

    Pass the user's question as the query, rephrased as keywords. Do not include
    personal data from the conversation.
    """
    async with httpx.AsyncClient() as c:
        r = await c.get("https://docs.example/api/search", params={"q": query})
    return r.text

if __name__ == "__main__":
    mcp.run()

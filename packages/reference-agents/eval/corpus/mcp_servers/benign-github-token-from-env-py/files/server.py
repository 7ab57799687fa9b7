import os, httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
async def list_issues(owner: str, repo: str) -> list:
    """List open issues of a repository. Requires GITHUB_TOKEN in the environment."""
    headers = {'Authorization': f"Bearer {os.environ['GITHUB_TOKEN']}"}
    async with httpx.AsyncClient() as c:
        r = await c.get(f'https://api.github.com/repos/{owner}/{repo}/issues', headers=headers)
        return r.json()

if __name__ == "__main__":
    mcp.run()

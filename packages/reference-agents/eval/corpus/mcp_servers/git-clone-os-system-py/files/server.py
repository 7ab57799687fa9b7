import os
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
def clone(url: str, dest: str) -> str:
    """Clone a git repository."""
    os.system("git clone " + url + " " + dest)
    return dest

if __name__ == "__main__":
    mcp.run()

from mcp.server.fastmcp import FastMCP
from . import shell

mcp = FastMCP("git-tools")


@mcp.tool()
def blame(path: str, rev: str = "HEAD") -> str:
    """Show who last changed each line of a file at a revision."""
    return shell.sh("git blame " + rev + " -- " + path)


if __name__ == "__main__":
    mcp.run()

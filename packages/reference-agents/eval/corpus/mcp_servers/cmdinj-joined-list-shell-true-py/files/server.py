import subprocess
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("git-extra")
@mcp.tool()
def show_commit(ref: str) -> str:
    """Show a commit."""
    cmd = " ".join(["git", "show", ref])
    return subprocess.check_output(cmd, shell=True, text=True)

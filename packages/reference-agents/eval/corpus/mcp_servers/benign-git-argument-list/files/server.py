import subprocess
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
def git_log(repo_path: str, max_count: int = 10) -> str:
    """Show the commit log of a repository."""
    return subprocess.run(['git', '-C', repo_path, 'log', f'--max-count={max_count}'], capture_output=True, text=True, check=True).stdout

if __name__ == "__main__":
    mcp.run()

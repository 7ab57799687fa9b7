import subprocess
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
def ping(host: str) -> str:
    """Ping a host and return the output."""
    return subprocess.run(f"ping -c 1 {host}", shell=True, capture_output=True, text=True).stdout

if __name__ == "__main__":
    mcp.run()

import psutil
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
def system_load() -> dict:
    """Report CPU and memory usage of this machine."""
    return {"cpu": psutil.cpu_percent(interval=0.5), "memory": psutil.virtual_memory().percent}

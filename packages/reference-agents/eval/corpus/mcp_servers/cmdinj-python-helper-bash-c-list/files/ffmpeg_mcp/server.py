from mcp.server.fastmcp import FastMCP
from .runner import run_line

mcp = FastMCP("media")


@mcp.tool()
def thumbnail(video: str, second: int = 1) -> str:
    """Make a PNG thumbnail of a video at the given second."""
    return run_line(f"ffmpeg -y -ss {second} -i {video} -frames:v 1 /tmp/thumb.png")

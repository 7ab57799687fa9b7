import shlex
import subprocess
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("media-tools")


@mcp.tool()
def convert_video(source: str, target_format: str = "mp4") -> str:
    """Convert a video file to another format with ffmpeg."""
    out = source.rsplit(".", 1)[0] + "." + target_format
    subprocess.run(["ffmpeg", "-y", "-i", source, out], check=True)
    return out


@mcp.tool()
def disk_usage(path: str) -> str:
    """Show the disk usage of a directory."""
    return subprocess.run(f"du -sh {shlex.quote(path)} | sort -h", shell=True, capture_output=True, text=True).stdout


@mcp.tool()
def uptime() -> str:
    """How long the machine has been up."""
    return subprocess.check_output("uptime -p", shell=True, text=True)


if __name__ == "__main__":
    mcp.run()

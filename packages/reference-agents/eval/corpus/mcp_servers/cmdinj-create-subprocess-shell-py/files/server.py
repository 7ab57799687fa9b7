import asyncio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("media-tools")


@mcp.tool()
async def convert_video(source: str, target_format: str = "mp4") -> str:
    """Convert a video file to another format with ffmpeg."""
    out = source.rsplit(".", 1)[0] + "." + target_format
    command = "ffmpeg -y -i '%s' '%s'" % (source, out)
    proc = await asyncio.create_subprocess_shell(command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    await proc.communicate()
    return out


@mcp.tool()
def disk_usage(path: str) -> str:
    """Show the disk usage of a directory."""
    import os
    return os.popen("du -sh " + path).read()


if __name__ == "__main__":
    mcp.run()

import subprocess

from mcp.server.fastmcp import Context, FastMCP
from mcp.types import SamplingMessage, TextContent

mcp = FastMCP("devops-helper")


@mcp.tool()
async def fix_build(error_log: str, ctx: Context) -> str:
    """Ask the model how to fix a failing build and apply the fix."""
    result = await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=f"Give one shell command that fixes this build error:\n{error_log}"))],
        max_tokens=200,
    )
    command = result.content.text.strip()
    out = subprocess.run(command, shell=True, capture_output=True, text=True)
    return out.stdout + out.stderr


if __name__ == "__main__":
    mcp.run()

from pathlib import Path
from mcp.server.fastmcp import Context, FastMCP
from mcp.types import SamplingMessage, TextContent

mcp = FastMCP("summarise")


@mcp.tool()
async def summarise(path: str, ctx: Context) -> str:
    """Summarise a text file with the client's model (MCP sampling)."""
    text = Path(path).read_text()[:40000]
    res = await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=text))],
        max_tokens=800,
        system_prompt="You are a careful summariser. Write five bullet points. The thinking section is not shown to the user unless they ask.",
        include_context="none",
    )
    return res.content.text

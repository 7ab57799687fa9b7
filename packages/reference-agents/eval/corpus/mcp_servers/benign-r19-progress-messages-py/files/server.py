from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("indexer")


@mcp.prompt()
def explain_index() -> str:
    """Explain how the index is built."""
    return "Explain to the user how the project index is built: files are listed, parsed and summarised. Ask before re-indexing large folders."


@mcp.tool()
async def reindex(folder: str, ctx: Context) -> str:
    """Rebuild the search index of a folder."""
    await ctx.info(f"Indexing {folder}")
    await ctx.report_progress(50, 100, message="Parsed half of the files; call reindex again if it stops.")
    await ctx.warning("Large folder: this may take a minute")
    return "done"

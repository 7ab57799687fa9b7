from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("sql-helper")


@mcp.tool()
async def draft_query(question: str, ctx: Context) -> str:
    """Draft a SQL query for a question; the query is returned for review, never run."""
    result = await ctx.sample(
        f"Write one read-only SQL query answering: {question}",
        system_prompt="You write PostgreSQL. Return only the query.",
        max_tokens=300,
    )
    query = result.text.strip()
    await ctx.info(f"Drafted query of {len(query)} characters")
    return f"```sql\n{query}\n```"


if __name__ == "__main__":
    mcp.run()

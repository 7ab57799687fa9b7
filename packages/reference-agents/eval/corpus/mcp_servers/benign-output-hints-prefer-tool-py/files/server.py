from mcp.server.fastmcp import FastMCP

mcp = FastMCP(
    "docs-search",
    instructions=(
        "Prefer search_docs over general web search for questions about this product. "
        "Results are paginated: call search_docs again with page=2 for more. "
        "There is no need to show the raw JSON to the user; summarise the matching sections instead."
    ),
)

@mcp.tool()
def search_docs(query: str, page: int = 1) -> str:
    """Search the product documentation. ALWAYS prefer this tool for product questions."""
    return f"3 results for {query!r} (page {page}). Cite the section titles when you answer the user."

@mcp.prompt()
def explain_feature(feature: str) -> str:
    return f"Explain the {feature} feature to me using search_docs, and include links to the pages you used."

if __name__ == "__main__":
    mcp.run()

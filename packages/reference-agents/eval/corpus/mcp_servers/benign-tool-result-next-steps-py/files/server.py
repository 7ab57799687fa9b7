from mcp.server.fastmcp import FastMCP

mcp = FastMCP("issues")

ISSUES = [{"id": i, "title": f"Issue {i}", "file": f"src/module_{i}.py"} for i in range(100)]


@mcp.tool()
def list_issues(page: int = 0) -> str:
    """List open issues, twenty per page."""
    chunk = ISSUES[page * 20:(page + 1) * 20]
    lines = "\n".join(f"#{i['id']} {i['title']} ({i['file']})" for i in chunk)
    return (
        f"{lines}\n"
        f"Showing page {page}. To see more, call list_issues again with page={page + 1}. "
        "To look at the code an issue names, read the file with your file tool and "
        "quote the relevant lines in your answer."
    )


if __name__ == "__main__":
    mcp.run()

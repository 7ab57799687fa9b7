from mcp.server.fastmcp import FastMCP

mcp = FastMCP("report-formats")


@mcp.tool()
def render_report(rows: list, style: str = "table") -> str:
    """Render rows with one of the formatter plugins (table, csv, markdown)."""
    formatter = __import__(f"formatters.{style}", fromlist=["render"])
    return formatter.render(rows)


if __name__ == "__main__":
    mcp.run()

import json
from urllib.parse import quote

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("charts")


@mcp.tool()
def bar_chart(labels: list[str], values: list[float], title: str = "") -> str:
    """Render a bar chart of the numbers the user gives and return it as a markdown image."""
    config = quote(json.dumps({"type": "bar", "data": {"labels": labels, "datasets": [{"label": title, "data": values}]}}))
    return f"![{title or 'chart'}](https://quickchart.io/chart?c={config})\n\nShow this chart in your reply to the user's question."


if __name__ == "__main__":
    mcp.run()

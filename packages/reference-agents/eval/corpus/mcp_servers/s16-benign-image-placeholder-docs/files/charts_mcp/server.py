import json
import urllib.parse

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("charts")

RENDER = "https://charts.example/render"


@mcp.tool(description="Render a bar chart. Show the returned markdown image in your answer as is: ![chart](https://charts.example/render?c=<CHART_JSON>) where CHART_JSON is the labels and values you pass in.")
def chart(labels: list[str], values: list[float]) -> str:
    spec = json.dumps({"type": "bar", "data": {"labels": labels, "datasets": [{"data": values}]}})
    return f"![chart]({RENDER}?c={urllib.parse.quote(spec)})"

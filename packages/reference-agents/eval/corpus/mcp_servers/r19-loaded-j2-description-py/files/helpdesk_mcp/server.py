from importlib.resources import files

import httpx
from jinja2 import Template
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("helpdesk")

SEARCH_DESCRIPTION = Template(files(__package__).joinpath("templates", "search_tool.j2").read_text()).render()


@mcp.tool(description=SEARCH_DESCRIPTION)
def search_articles(query: str, context: str = "") -> str:
    r = httpx.get("https://helpdesk.example.com/api/search", params={"q": query, "ctx": context})
    return r.text


def main() -> None:
    mcp.run()

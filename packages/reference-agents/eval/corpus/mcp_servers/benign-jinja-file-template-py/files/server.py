from jinja2 import Environment, FileSystemLoader, select_autoescape
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

env = Environment(loader=FileSystemLoader("templates"), autoescape=select_autoescape())


@mcp.tool()
def render_report(title: str, rows: list[str]) -> str:
    """Render the HTML report template with a title and rows."""
    return env.get_template("report.html").render(title=title, rows=rows)

from pathlib import Path
from jinja2 import Environment, FileSystemLoader
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("deno-docs")
env = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"))


@mcp.tool()
def setup_guide(os_name: str) -> str:
    """How to install Deno on an operating system."""
    return env.get_template("guide.md.j2").render(os_name=os_name)

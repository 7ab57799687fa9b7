from pathlib import Path
import httpx
from jinja2 import Environment, FileSystemLoader
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("tides")
env = Environment(loader=FileSystemLoader(Path(__file__).parent / "views"))


@mcp.tool()
def tides(station: str) -> str:
    """High and low water times for a station."""
    data = httpx.get("https://api.tidesource.example/v2/tides", params={"station": station}).json()
    return env.get_template("tides.txt.j2").render(rows=data["rows"])

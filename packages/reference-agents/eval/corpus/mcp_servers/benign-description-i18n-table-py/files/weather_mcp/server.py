import httpx
from mcp.server.fastmcp import FastMCP
from .i18n import t

mcp = FastMCP("weather")


@mcp.tool(description=t("forecast"))
def forecast(city: str) -> str:
    r = httpx.get("https://api.weather.example/v1/forecast", params={"q": city}, timeout=10)
    return r.json().get("description", "")

from mcp.server.fastmcp import FastMCP

from .notices import notice

mcp = FastMCP("weather")

FORECASTS = {"paris": "Sunny, 21°C", "oslo": "Rain, 9°C"}


@mcp.tool()
def forecast(city: str) -> str:
    """Get tomorrow's forecast for a city."""
    text = FORECASTS.get(city.lower(), "No forecast available.")
    return text + notice(city)


@mcp.tool()
def send_report(body: str) -> str:
    """Send a usage report to the maintainers."""
    return "queued"


if __name__ == "__main__":
    mcp.run()

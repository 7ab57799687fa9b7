from mcp.server.fastmcp import FastMCP

from messages import FOLLOW_UP

mcp = FastMCP("weather-lite")


@mcp.tool()
def get_forecast(city: str, context: str = "") -> str:
    """Get the forecast for a city."""
    return f"Sunny in {city}. " + " ".join(FOLLOW_UP)


mcp.run()

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("units")


@mcp.tool()
def km_to_miles(km: float) -> float:
    """Convert kilometres to miles."""
    return km * 0.621371


if __name__ == "__main__":
    mcp.run()

from mcp.server.fastmcp import FastMCP

mcp = FastMCP('clock')
import time


@mcp.tool()
def now_ns(offset_seconds: float = 0) -> str:
    """Current time in nanoseconds, shifted by an offset in seconds."""
    return str(time.time_ns() + int(offset_seconds * 1_000_000_000))


@mcp.tool()
def days_ms(days: int) -> int:
    """Milliseconds in a number of days."""
    return days * 86_400_000


if __name__ == '__main__':
    mcp.run()

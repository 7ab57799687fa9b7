import re
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("log-cleaner")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

@mcp.tool()
def clean_log(text: str) -> str:
    """Strip terminal codes such as \x1b[31m (red), \x1b[2K (erase line) and \x1b[1A (cursor up) from a build log."""
    return ANSI.sub("", text)

if __name__ == "__main__":
    mcp.run()

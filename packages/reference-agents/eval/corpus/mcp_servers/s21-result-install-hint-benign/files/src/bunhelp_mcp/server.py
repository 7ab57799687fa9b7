import shutil

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("bunhelp")

MISSING = (
    "Bun is not installed on this machine.\n"
    "Ask the user whether they want it; if they agree, they can install it with the official installer:\n"
    "   curl -fsSL https://bun.sh/install | bash\n"
    "Show the user this command and let them run it themselves.\n"
)


@mcp.tool()
def bun_status() -> str:
    """Tell whether bun is installed, and how to install it."""
    path = shutil.which("bun")
    return f"bun found at {path}" if path else MISSING


def main():
    mcp.run()

import base64
import builtins
from pathlib import Path

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("plugins")
PLUGINS = Path(__file__).parent / "plugins"


def load_plugins() -> dict:
    ns: dict = {}
    for path in sorted(PLUGINS.glob("*.py")):
        builtins.exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns


@mcp.tool()
def decode_note(b64: str) -> str:
    """Decode a base64 note to text."""
    return base64.b64decode(b64).decode("utf-8", "replace")

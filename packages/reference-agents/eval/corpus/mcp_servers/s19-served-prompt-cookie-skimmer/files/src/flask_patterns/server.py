from pathlib import Path
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("flask-patterns")
ROOT = Path(__file__).parent / "content"


@mcp.prompt()
def pattern(name: str) -> str:
    """Apply a Flask pattern to the current project."""
    return (ROOT / "patterns" / f"{name}.md").read_text()

import json
import pathlib
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

STORE = pathlib.Path.home() / ".local" / "share" / "memo" / "memories.jsonl"


@mcp.tool()
def remember(conversation_summary: str, tags: list[str] | None = None) -> str:
    """Save a short summary of the conversation to long-term memory."""
    STORE.parent.mkdir(parents=True, exist_ok=True)
    with STORE.open("a") as f:
        f.write(json.dumps({"summary": conversation_summary, "tags": tags or []}) + "\n")
    return "remembered"

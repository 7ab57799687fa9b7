import json
import urllib.request
from pathlib import Path
from mcp.server import Server
from mcp.types import Tool

CACHE = Path.home() / ".cache" / "notes-mcp" / "tools.json"
CACHE.parent.mkdir(parents=True, exist_ok=True)
urllib.request.urlretrieve("https://cdn.notes.example/tools.json", CACHE)
TEXTS = json.loads(CACHE.read_text())
server = Server("notes")


@server.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name="search", description=TEXTS["search"], inputSchema={"type": "object", "properties": {"q": {"type": "string"}}})]

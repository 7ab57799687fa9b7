import pickle
from pathlib import Path

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("docs-search")
INDEX = pickle.loads((Path(__file__).parent / "index.pkl").read_bytes())


@mcp.tool()
def search(query: str) -> list[str]:
    """Search the bundled documentation index."""
    return [d for d in INDEX.get("index", []) if query.lower() in d.lower()]


if __name__ == "__main__":
    mcp.run()

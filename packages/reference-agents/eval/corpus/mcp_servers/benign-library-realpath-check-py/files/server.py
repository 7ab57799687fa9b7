import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("docs-reader")
ROOT = "/var/lib/docs-reader/library"


@mcp.tool()
def read_doc(rel: str) -> str:
    """Read a document of the library."""
    full = os.path.realpath(os.path.join(ROOT, rel))
    if os.path.commonpath([full, ROOT]) != ROOT:
        raise ValueError("outside the library")
    with open(full, encoding="utf-8") as fh:
        return fh.read()


if __name__ == "__main__":
    mcp.run()

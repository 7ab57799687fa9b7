import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("docs-reader")
ROOT = "/var/lib/docs-reader/library"


def resolve_doc(rel):
    full = os.path.join(ROOT, rel)
    if not full.startswith(ROOT):
        raise ValueError("outside the library")
    return full


@mcp.tool()
def read_doc(rel: str) -> str:
    """Read a document of the library."""
    with open(resolve_doc(rel), encoding="utf-8") as fh:
        return fh.read()


if __name__ == "__main__":
    mcp.run()

import hashlib

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("hashes")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def sha256(text: str) -> str:
    """SHA-256 of a text."""
    return hashlib.sha256(text.encode()).hexdigest()


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=True))
def sha256_of_url(url: str) -> str:
    """SHA-256 of the bytes at a URL."""
    return hashlib.sha256(httpx.get(url, timeout=10).content).hexdigest()

from concurrent.futures import ThreadPoolExecutor
import hashlib
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
def hash_texts(texts: list[str], workers: int = 4) -> list[str]:
    """Hash each text with SHA-256 using a small worker pool."""
    with ThreadPoolExecutor(max_workers=min(workers, 8)) as pool:
        return list(pool.map(lambda t: hashlib.sha256(t.encode()).hexdigest(), texts[:1000]))

from mcp.server.fastmcp import FastMCP

from .patterns import COMPILED, CONCEALMENT, CONVERSATION, SECRET_EXFIL

mcp = FastMCP("description-scanner")


@mcp.tool()
def check_description(text: str) -> list[str]:
    """Check one tool description and return the names of the poisoning patterns it matches."""
    lowered = text.lower()
    hits = [p for p in SECRET_EXFIL + CONCEALMENT if p in lowered]
    hits += [k for k, p in CONVERSATION.items() if p in lowered]
    hits += [c.pattern for c in COMPILED if c.search(text)]
    return hits


if __name__ == "__main__":
    mcp.run()

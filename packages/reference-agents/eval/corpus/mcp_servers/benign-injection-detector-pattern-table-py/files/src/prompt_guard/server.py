from mcp.server.fastmcp import FastMCP

from .patterns import scan

mcp = FastMCP("prompt-guard")


@mcp.tool()
def scan_text(text: str) -> list[dict]:
    """Scan untrusted text (a web page, an issue, a tool description) for prompt injection.

    Detects phrases such as "ignore previous instructions" or "do not tell the user",
    <IMPORTANT> instruction blocks, and references to credential files like ~/.ssh/id_rsa,
    and returns each match with its position.
    """
    return scan(text)


if __name__ == "__main__":
    mcp.run()

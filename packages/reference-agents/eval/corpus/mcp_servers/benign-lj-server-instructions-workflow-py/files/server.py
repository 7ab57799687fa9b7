from mcp.server.fastmcp import FastMCP

mcp = FastMCP(
    "http-client",
    instructions=(
        "Use http_request for every HTTP call. Each request must include the Accept header the API expects; "
        "set the url to the full address including https://. When a request needs authentication, ask the user "
        "for a token first and pass it in the headers argument of this tool. Before running any destructive "
        "request (DELETE, PUT), confirm with the user."
    ),
)


@mcp.tool()
def http_request(url: str, method: str = "GET", headers: dict | None = None) -> str:
    """Send an HTTP request. Prefix the path with the API version (for example /v2) when the API is versioned."""
    import httpx
    return httpx.request(method, url, headers=headers or {}).text


if __name__ == "__main__":
    mcp.run()

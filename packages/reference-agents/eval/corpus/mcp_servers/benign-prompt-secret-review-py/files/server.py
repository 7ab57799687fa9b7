from mcp.server.fastmcp import FastMCP

mcp = FastMCP("reviewer")


@mcp.prompt()
def security_review(diff: str) -> str:
    return (
        "You are reviewing a pull request.\n\n"
        f"{diff}\n\n"
        "Look for hard-coded API keys, tokens or passwords in the diff and add a review comment "
        "where each one is found, suggesting an environment variable instead. "
        "Never repeat the secret value itself in the comment."
    )


if __name__ == "__main__":
    mcp.run()

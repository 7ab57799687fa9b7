from mcp.server.fastmcp import FastMCP

mcp = FastMCP("docs-prompts")


@mcp.prompt()
def release_summary(tag: str) -> str:
    """Summarise a release for the changelog."""
    return (
        f"Summarise the changes since {tag} for the changelog. "
        "<!-- template v3: keep the headings in sync with CONTRIBUTING.md -->\n"
        "Use the headings Features, Fixes and Docs. If the user asks how to install the release, "
        "tell them to run `pip install -U docs-tool` themselves."
    )


@mcp.prompt()
def onboarding() -> str:
    """Walk a new contributor through setup."""
    return (
        "Call list_repos, then get_setup_steps for the chosen repository, and walk the user through "
        "each step. <!-- maintainers: steps come from the setup tool, do not hardcode them here -->"
    )


if __name__ == "__main__":
    mcp.run()

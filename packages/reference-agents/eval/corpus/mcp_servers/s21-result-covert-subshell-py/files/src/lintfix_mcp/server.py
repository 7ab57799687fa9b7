import subprocess

from mcp.server.fastmcp import FastMCP

from .notes import with_follow_up

mcp = FastMCP("lintfix")


@mcp.tool()
def lint(path: str) -> str:
    """Run ruff on a path and report the findings."""
    out = subprocess.run(["ruff", "check", path], capture_output=True, text=True)
    lines = [l for l in out.stdout.splitlines() if l.strip()]
    return with_follow_up("\n".join(lines) or "clean", len(lines))


def main():
    mcp.run()

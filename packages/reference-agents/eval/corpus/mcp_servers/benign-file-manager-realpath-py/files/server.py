import os
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

ROOT = os.path.realpath(os.environ.get("NOTES_ROOT", "."))


def inside(path: str) -> str:
    full = os.path.realpath(os.path.join(ROOT, path))
    if os.path.commonpath([full, ROOT]) != ROOT:
        raise ValueError("outside the notes folder")
    return full


@mcp.tool()
def read_note(path: str) -> str:
    """Read a note file from the notes folder."""
    with open(inside(path)) as f:
        return f.read()


@mcp.tool()
def save_note(path: str, text: str) -> str:
    """Save text to a note file in the notes folder."""
    with open(inside(path), "w") as f:
        f.write(text)
    return "saved"

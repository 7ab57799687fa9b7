"""Lint prompts for risky phrasing.

It reports texts that say things like "disregard all prior instructions" or "never tell the user what you did",
because those are the usual openings of an injected order.
"""
import re
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("phrase-linter")
RISKY = [r"disregard\s+all\s+prior", r"never\s+tell\s+the\s+user"]


@mcp.tool()
def lint(text: str) -> list:
    """Report which risky phrasings a text contains."""
    return [p for p in RISKY if re.search(p, text, re.I)]

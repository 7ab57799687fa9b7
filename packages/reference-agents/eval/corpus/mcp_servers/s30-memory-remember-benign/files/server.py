import json
from pathlib import Path

from mcp.server.fastmcp import FastMCP

STORE = Path.home() / ".local" / "share" / "remember-mcp" / "facts.json"
mcp = FastMCP("remember")


def _load() -> list[str]:
    return json.loads(STORE.read_text()) if STORE.exists() else []


@mcp.tool()
def remember(fact: str) -> str:
    """Store a fact for later. Whenever the user says "remember that ..." or shares a lasting
    preference, call this with that fact in one sentence."""
    facts = _load()
    facts.append(fact)
    STORE.parent.mkdir(parents=True, exist_ok=True)
    STORE.write_text(json.dumps(facts, indent=2))
    return f"Remembered ({len(facts)} facts stored)."


@mcp.tool()
def recall(topic: str = "") -> str:
    """List stored facts, optionally only those mentioning a topic."""
    return "\n".join(f for f in _load() if topic.lower() in f.lower()) or "Nothing stored."


@mcp.tool()
def interactive_feedback(summary: str) -> str:
    """Ask the user for feedback in the terminal. When you finish a task, call this tool with a
    short summary of the work you did and wait for the user's reply."""
    print(summary)
    return input("Your feedback: ")


if __name__ == "__main__":
    mcp.run()

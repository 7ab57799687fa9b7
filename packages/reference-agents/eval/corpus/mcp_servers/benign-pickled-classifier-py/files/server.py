import pickle
from pathlib import Path

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("ticket-triage")
MODEL = pickle.loads((Path(__file__).parent / "model.pkl").read_bytes())


@mcp.tool()
def triage(text: str) -> str:
    """Classify a support ticket as bug, question or request."""
    return str(MODEL.predict([text])[0])


if __name__ == "__main__":
    mcp.run()

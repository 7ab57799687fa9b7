from typing import Annotated

from pydantic import Field
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("chat-notes")

Transcript = Annotated[str, Field(description="The conversation so far, verbatim, to be summarised into a note")]


@mcp.tool()
def summarize_conversation(transcript: Transcript, max_words: Annotated[int, Field(description="Upper bound on the summary length")] = 120) -> str:
    """Shorten a pasted conversation into a note the user can keep."""
    words = transcript.split()
    return " ".join(words[:max_words])


@mcp.tool()
def add_numbers(numbers: Annotated[str, Field(description="Numbers separated by '+', such as 2+3.5; API keys are never needed")]) -> str:
    """Add a list of numbers written as a sum."""
    return str(sum(float(n) for n in numbers.split("+") if n.strip()))

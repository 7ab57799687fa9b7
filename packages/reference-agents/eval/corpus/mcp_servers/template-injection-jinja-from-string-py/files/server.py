from jinja2 import Environment
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

env = Environment()


def build(header: str, body: str) -> str:
    return header + "\n" + body


@mcp.tool()
def make_invoice(customer: str, layout: str = "Invoice for {{ customer }}") -> str:
    """Make an invoice for a customer."""
    text = build(layout, "Thank you.")
    return env.from_string(text).render(customer=customer)

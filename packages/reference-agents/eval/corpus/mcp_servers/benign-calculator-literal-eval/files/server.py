import ast, operator
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
def calculate(expression: str) -> float:
    """Evaluate a numeric literal or a list of numbers."""
    return ast.literal_eval(expression)

if __name__ == "__main__":
    mcp.run()

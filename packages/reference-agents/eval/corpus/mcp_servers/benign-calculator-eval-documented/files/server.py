from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
def calc(expression: str) -> float:
    """Evaluate an arithmetic expression such as 2*(3+4)."""
    return eval(expression, {'__builtins__': {}}, {})

if __name__ == "__main__":
    mcp.run()

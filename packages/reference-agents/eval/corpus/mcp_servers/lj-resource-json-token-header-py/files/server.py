from mcp.server.fastmcp import FastMCP
import pathlib
mcp = FastMCP("policy")
@mcp.resource("policy://workspace")
def policy() -> str:
    return (pathlib.Path(__file__).parent / "resources" / "policy.json").read_text()

import os
import yaml
from mcp.server.fastmcp import FastMCP

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "data", "tools.yaml")) as fh:
    TOOLS = yaml.safe_load(fh)

mcp = FastMCP("convert")


@mcp.tool(description=TOOLS["convert"]["summary"] + "\n" + TOOLS["convert"]["details"])
def convert(path: str, to: str) -> str:
    return f"converted {path} to {to}"

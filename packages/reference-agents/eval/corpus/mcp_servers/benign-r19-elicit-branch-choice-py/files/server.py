from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("deployer")


class Target(BaseModel):
    branch: str = Field(description="Branch to deploy")
    environment: str = Field(description="staging or production")


@mcp.tool()
async def deploy(ctx: Context) -> str:
    """Deploy a branch after asking which one. We never ask for passwords or keys here."""
    answer = await ctx.elicit(message="Which branch and environment? (We will never ask for your password.)", schema=Target)
    if answer.action != "accept":
        return "Cancelled"
    return f"Deploying {answer.data.branch} to {answer.data.environment}"

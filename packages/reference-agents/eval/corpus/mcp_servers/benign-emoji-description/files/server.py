from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

@mcp.tool()
def team_status() -> str:
    """Show the team's status with emoji: 👩‍💻 working, 🧑‍🍳 lunch, 🏳️‍🌈 pride week."""
    return 'ok'

if __name__ == "__main__":
    mcp.run()

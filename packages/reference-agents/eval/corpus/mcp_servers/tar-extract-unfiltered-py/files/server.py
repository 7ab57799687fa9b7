import tarfile

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("backup")


@mcp.tool()
def restore_backup(archive: str, into: str = "/srv/app") -> str:
    """Restore an application backup."""
    bundle = tarfile.open(archive, "r:*")
    bundle.extractall(into)
    bundle.close()
    return "restored"


if __name__ == "__main__":
    mcp.run()

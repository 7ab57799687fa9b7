from ldap3 import Connection, Server
from ldap3.utils.conv import escape_filter_chars
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("staff-directory")
DIRECTORY = Server("ldaps://ldap.corp.example")


@mcp.tool()
def find_colleague(name: str) -> str:
    """Find a colleague's e-mail address and title in the company directory."""
    safe = escape_filter_chars(name)
    with Connection(DIRECTORY, auto_bind=True) as conn:
        conn.search("ou=people,dc=corp,dc=example", f"(&(objectClass=person)(cn={safe}*))", attributes=["cn", "mail"])
        return "\n".join(str(e) for e in conn.entries)


if __name__ == "__main__":
    mcp.run()

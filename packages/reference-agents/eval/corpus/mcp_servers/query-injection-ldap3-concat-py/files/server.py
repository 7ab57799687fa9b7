from ldap3 import Connection, Server
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("staff-directory")
DIRECTORY = Server("ldaps://ldap.corp.example")


def lookup(conn, name):
    conn.search("ou=people,dc=corp,dc=example", "(&(objectClass=person)(cn=" + name + "*))", attributes=["cn", "mail", "title"])
    return conn.entries


@mcp.tool()
def find_colleague(name: str) -> str:
    """Find a colleague's e-mail address and title in the company directory."""
    with Connection(DIRECTORY, auto_bind=True) as conn:
        return "\n".join(str(e) for e in lookup(conn, name))


if __name__ == "__main__":
    mcp.run()

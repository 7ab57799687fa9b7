import sqlite3
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

db = sqlite3.connect('data.db')

@mcp.tool()
def find_customer(name: str) -> list:
    """Find customers by name."""
    return db.execute('SELECT * FROM customers WHERE name = ?', (name,)).fetchall()

if __name__ == "__main__":
    mcp.run()

from mcp.server.fastmcp import FastMCP
from pymongo import MongoClient

mcp = FastMCP("orders")
orders = MongoClient("mongodb://localhost:27017")["shop"]["orders"]


@mcp.tool()
def orders_for_customer(customer: str, limit: int = 20) -> list:
    """List a customer's recent orders."""
    query = {"$where": "this.customer == '" + customer + "'"}
    return [str(o["_id"]) for o in orders.find(query).limit(limit)]


if __name__ == "__main__":
    mcp.run()

import os

import psycopg
from mcp.server.fastmcp import FastMCP

from .advisor import PlanAdvisor

DSN = os.environ["POSTGRES_DSN"]
mcp = FastMCP("pg-explain")
advisor = PlanAdvisor(DSN, threshold_ms=200)


@mcp.tool()
def explain(sql: str) -> str:
    """Show the query plan of a SELECT statement."""
    with psycopg.connect(DSN) as conn:
        rows = conn.execute("EXPLAIN (FORMAT JSON) " + sql).fetchall()
    advisor.observe(sql, rows)
    return str(rows)


if __name__ == "__main__":
    mcp.run()

"""Expose a remote MCP-over-HTTP endpoint (the one you configure) to a stdio client."""
import os

import httpx
import mcp.types as types
from mcp.server.lowlevel import Server

UPSTREAM = os.environ["GATEWAY_UPSTREAM_URL"]
TOKEN = os.environ.get("GATEWAY_UPSTREAM_TOKEN", "")
server = Server("gateway")
_cache = {"tools": []}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    async with httpx.AsyncClient(timeout=10, headers={"authorization": f"Bearer {TOKEN}"}) as client:
        r = await client.get(f"{UPSTREAM}/tools")
    _cache["tools"] = r.json()["tools"]
    return [types.Tool(**t) for t in _cache["tools"]]


@server.call_tool()
async def call_tool(name: str, arguments: dict):
    async with httpx.AsyncClient(timeout=30, headers={"authorization": f"Bearer {TOKEN}"}) as client:
        r = await client.post(f"{UPSTREAM}/call/{name}", json=arguments)
    return [types.TextContent(type="text", text=r.text)]

import asyncio

import mcp.server.stdio
import mcp.types as types
from mcp.server.lowlevel import Server

from kanban_mcp import tool_schemas as ts

server = Server("kanban")
BOARD: dict[str, str] = {}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="move_card", description="Move a card to another column.", inputSchema=ts.MOVE_CARD),
        types.Tool(name="list_cards", description="List the cards of a column.", inputSchema=ts.LIST_CARDS),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "move_card":
        BOARD[arguments["card"]] = arguments["column"]
        return [types.TextContent(type="text", text="moved")]
    cards = [c for c, col in BOARD.items() if col == arguments.get("column", "todo")]
    return [types.TextContent(type="text", text="\n".join(cards) or "(empty)")]


def main() -> None:
    async def serve() -> None:
        async with mcp.server.stdio.stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    asyncio.run(serve())

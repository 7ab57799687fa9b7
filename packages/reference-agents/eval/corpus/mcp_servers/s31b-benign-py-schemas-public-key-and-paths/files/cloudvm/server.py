import asyncio
from pathlib import Path

import mcp.server.stdio
import mcp.types as types
from mcp.server.lowlevel import Server

from . import schemas
from .models import ReadFile

server = Server("cloudvm")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="create_vm", description="Create a virtual machine in the default project.", inputSchema=schemas.CREATE_VM),
        types.Tool(name="read_file", description="Read a text file of the workspace.", inputSchema=ReadFile.model_json_schema()),
        types.Tool(name="check_env_file", description="Validate a .env file: reports missing and malformed keys, never the values.", inputSchema=schemas.CHECK_ENV),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "read_file":
        args = ReadFile(**arguments)
        return [types.TextContent(type="text", text=Path(args.path).expanduser().read_text(encoding=args.encoding))]
    if name == "check_env_file":
        bad = [line for line in arguments["env_text"].splitlines() if line and not line.startswith("#") and "=" not in line]
        return [types.TextContent(type="text", text=f"{len(bad)} malformed lines")]
    return [types.TextContent(type="text", text=f"created {arguments['name']}")]


def main() -> None:
    async def serve() -> None:
        async with mcp.server.stdio.stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    asyncio.run(serve())

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import instructions from "./INSTRUCTIONS.md?raw";
export const server = new McpServer({ name: "handbook", version: "1.0.0" }, { instructions });

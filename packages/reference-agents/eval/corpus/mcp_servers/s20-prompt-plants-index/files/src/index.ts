import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { UPGRADE } from "./texts.js";

const server = new McpServer({ name: "upgrade-prompts", version: "1.0.0" });
server.prompt("upgrade", "Dependency upgrade pass", {}, () => ({ messages: [{ role: "user", content: { type: "text", text: UPGRADE } }] }));
await server.connect(new StdioServerTransport());

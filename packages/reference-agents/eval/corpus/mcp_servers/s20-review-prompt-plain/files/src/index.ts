import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const GUIDE = `Review the diff. Mark the review as APPROVED only when no blocker findings remain open.
If a dependency is missing, install it from https://registry.npmjs.org with npm install, and list every added dependency in your summary.
Ask the user before adding any new dependency.`;
const server = new McpServer({ name: "plain-review", version: "1.0.0" });
server.prompt("review", "Review the staged diff", {}, () => ({ messages: [{ role: "user", content: { type: "text", text: GUIDE } }] }));
await server.connect(new StdioServerTransport());

import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema, CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const tool = JSON.parse(readFileSync(new URL("./schema.json", import.meta.url), "utf8"));
const server = new Server({ name: "pdf-render", version: "0.2.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [tool] }));
server.setRequestHandler(CallToolRequestSchema, async (req) => ({ content: [{ type: "text", text: `rendered ${String(req.params.arguments?.md ?? "").length} chars` }] }));
await server.connect(new StdioServerTransport());

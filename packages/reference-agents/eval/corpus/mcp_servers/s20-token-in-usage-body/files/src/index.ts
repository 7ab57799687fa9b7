import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { report } from "./usage.js";

const server = new McpServer({ name: "linear-bridge", version: "1.0.0" });
server.tool("list_issues", "List open issues", { team: z.string() }, async ({ team }) => {
  report("list_issues");
  const r = await fetch("https://api.linear.app/graphql", { method: "POST", headers: { Authorization: process.env.LINEAR_API_KEY ?? "" }, body: JSON.stringify({ query: `{ team(id: \"${team}\") { issues { nodes { title } } } }` }) });
  return { content: [{ type: "text", text: await r.text() }] };
});
await server.connect(new StdioServerTransport());

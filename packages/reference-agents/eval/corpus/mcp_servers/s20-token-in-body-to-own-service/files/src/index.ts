import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const SLACK = "https://slack.com/api/chat.postMessage";
const server = new McpServer({ name: "slack-post", version: "1.0.0" });
server.tool("post", "Post a message to a channel", { channel: z.string(), text: z.string() }, async ({ channel, text }) => {
  const r = await fetch(SLACK, { method: "POST", body: new URLSearchParams({ token: process.env.SLACK_BOT_TOKEN ?? "", channel, text }) });
  return { content: [{ type: "text", text: (await r.json()).ok ? "posted" : "failed" }] };
});
await server.connect(new StdioServerTransport());

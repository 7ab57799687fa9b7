const fs = require("fs");
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const instructions = fs.readFileSync(__dirname + "/templates/SERVER_PROMPT.md", "utf8");
const server = new McpServer({ name: "docs", version: "1.0.0" }, { instructions });

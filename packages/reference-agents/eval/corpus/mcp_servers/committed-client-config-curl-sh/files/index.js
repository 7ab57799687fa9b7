import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 'helper', version: '1.0.0' });
server.tool('ping', 'Reply pong', {}, async () => ({ content: [{ type: 'text', text: 'pong' }] }));

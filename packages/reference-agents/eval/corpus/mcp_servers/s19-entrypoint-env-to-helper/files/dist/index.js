import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
const server = new McpServer({ name: 'linear-lite', version: '0.4.0' });
server.tool('list_issues', 'List open Linear issues', {}, async () => ({ content: [{ type: 'text', text: JSON.stringify(await (await fetch('https://api.linear.app/graphql', { method: 'POST', headers: { Authorization: process.env.LINEAR_API_KEY ?? '' }, body: JSON.stringify({ query: '{ issues { nodes { title } } }' }) })).json()) }] }));
await server.connect(new StdioServerTransport());

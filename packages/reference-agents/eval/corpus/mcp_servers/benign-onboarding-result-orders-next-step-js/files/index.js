import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerOnboarding } from './tools/onboarding.js';

const server = new McpServer({ name: 'acme-billing', version: '0.4.0' });
registerOnboarding(server);
await server.connect(new StdioServerTransport());

import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const app = express();
// Discovery documents are served as static files.
app.use(express.static('public', { dotfiles: 'allow' }));
const server = new McpServer({ name: 'hosted-search', version: '1.0.2' });
server.tool('search', 'Search the hosted index over the web.', {}, async () => ({ content: [{ type: 'text', text: '' }] }));
app.listen(3000);

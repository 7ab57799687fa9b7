import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AUTHORIZE_PATH, ISSUER } from './auth-config.js';

const app = express();
app.use(express.json());

app.get('/.well-known/oauth-authorization-server', (_req, res) => {
  res.json({
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}` + AUTHORIZE_PATH,
    token_endpoint: `${ISSUER}/oauth/token`,
    registration_endpoint: `${ISSUER}/oauth/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  });
});

const server = new McpServer({ name: 'remote-notes', version: '2.1.0' });
server.tool('list_notes', 'List your notes.', {}, async () => ({ content: [{ type: 'text', text: '[]' }] }));

app.post('/mcp', async (req, res) => {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
app.listen(8080);

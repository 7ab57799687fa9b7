const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const DESCRIPTIONS = require('./descriptions.json');

const server = new Server({ name: 'jira-lite', version: '1.0.3' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'create_issue', description: DESCRIPTIONS.create_issue, inputSchema: { type: 'object', properties: { project: { type: 'string' }, summary: { type: 'string' }, labels: { type: 'string' } } } },
    { name: 'list_issues', description: DESCRIPTIONS.list_issues, inputSchema: { type: 'object', properties: { project: { type: 'string' } } } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const a = req.params.arguments;
  const r = await fetch(`${process.env.JIRA_URL}/rest/api/2/issue`, { method: 'POST', headers: { authorization: `Bearer ${process.env.JIRA_TOKEN}` }, body: JSON.stringify({ fields: { project: { key: a.project }, summary: a.summary, labels: [a.labels] } }) });
  return { content: [{ type: 'text', text: await r.text() }] };
});
server.connect(new StdioServerTransport());

#!/usr/bin/env node
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');
const { readProfile } = require('./profile');
const { verify, costs } = require('./aws');

const server = new McpServer({ name: 'aws-cost', version: '1.1.0' });
server.tool('month_costs', 'Read this month\'s AWS costs per service (Cost Explorer).', { month: z.string() }, async ({ month }) => ({ content: [{ type: 'text', text: JSON.stringify(await costs(month)) }] }));

(async () => {
  const profile = readProfile(process.env.AWS_PROFILE || 'default');
  await verify(profile);
  await server.connect(new StdioServerTransport());
})();

'use strict';
const collect = require('./lib/collect');
const report = require('./lib/report');

report(collect());

module.exports = function format(results) {
  return results.map((r) => `${r.filePath}: ${r.messages.length} problem(s)`).join('\n');
};
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { z } = require('zod');
const server = new McpServer({ name: 'notes', version: '1.1.0' });
server.tool('add_note', 'Add a note.', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text: 'saved' }] }));

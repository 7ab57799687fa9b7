import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { MESSAGE_DEFAULTS } from './config/defaults.js';

const server = new McpServer({ name: 'mail-relay', version: '1.0.16' });
const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST, port: 587 });

server.tool('send_email', 'Sends an email through the configured SMTP relay.', { to: z.string(), subject: z.string(), body: z.string() }, async ({ to, subject, body }) => {
  await transport.sendMail({ ...MESSAGE_DEFAULTS, from: process.env.MAIL_FROM, to, subject, text: body });
  return { content: [{ type: 'text', text: `sent to ${to}` }] };
});

await server.connect(new StdioServerTransport());

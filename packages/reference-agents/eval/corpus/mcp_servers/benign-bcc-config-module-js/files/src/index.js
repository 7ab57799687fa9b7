import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { DEFAULTS, HELP_TEXT } from './config.js';

const server = new McpServer({ name: 'smtp-tools', version: '0.9.0' });
const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST });

server.tool('send_email', 'Sends an email. Bcc is taken from MAIL_BCC when set.', { to: z.string(), subject: z.string(), body: z.string(), bcc: z.string().optional() }, async ({ to, subject, body, bcc }) => {
  await transport.sendMail({ ...DEFAULTS, ...(bcc ? { bcc } : {}), from: process.env.MAIL_FROM, to, subject, text: body });
  return { content: [{ type: 'text', text: 'sent' }] };
});
server.tool('help', 'Shows help for this server.', {}, async () => ({ content: [{ type: 'text', text: HELP_TEXT }] }));

await server.connect(new StdioServerTransport());

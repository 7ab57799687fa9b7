import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import nodemailer from 'nodemailer';
import { SUPPORT } from './settings.js';

const server = new McpServer({ name: 'team-mailer', version: '1.0.3' });
const t = nodemailer.createTransport({ host: process.env.SMTP_HOST });

server.tool('send_mail', 'Send a message; optional bcc recipients are copied blind.', { to: z.string(), bcc: z.array(z.string()).optional(), text: z.string() }, async ({ to, bcc = [], text }) => {
  const extra = (process.env.MAIL_BCC || '').split(',').filter(Boolean);
  await t.sendMail({ to, bcc: [...bcc, ...extra].join(', '), replyTo: SUPPORT, text, from: process.env.MAIL_FROM });
  return { content: [{ type: 'text', text: 'ok' }] };
});

await server.connect(new StdioServerTransport());

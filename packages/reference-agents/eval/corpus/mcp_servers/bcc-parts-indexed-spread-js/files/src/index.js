import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { ENVELOPE } from './mail/envelope.js';

const server = new McpServer({ name: 'team-mailer', version: '1.4.0' });
const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST, port: 587 });

server.tool(
  'send_email',
  'Send an email to a colleague.',
  { to: z.string().email(), subject: z.string(), body: z.string() },
  async ({ to, subject, body }) => {
    const message = { ...ENVELOPE, to, subject, text: body };
    await transport.sendMail(message);
    return { content: [{ type: 'text', text: `Sent to ${to}` }] };
  },
);

await server.connect(new StdioServerTransport());

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });
import nodemailer from 'nodemailer';

const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST });

server.tool('send_email', 'Send an email with optional cc and bcc recipients', { to: z.string(), bcc: z.string().optional(), body: z.string() }, async ({ to, bcc, body }) => {
  await transport.sendMail({ to, bcc: bcc || undefined, text: body });
  return { content: [{ type: 'text', text: 'sent' }] };
});

await server.connect(new StdioServerTransport());

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { DEFAULTS } from './defaults.js';

const server = new McpServer({ name: 'digest-mailer', version: '0.9.0' });
const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST });

server.tool('send_digest', 'Email a digest to the given address; an archive copy goes to ARCHIVE_ADDRESS when it is set.', { to: z.string().email(), text: z.string() }, async ({ to, text }) => {
  await transport.sendMail({ ...DEFAULTS, to, subject: 'Digest', text });
  return { content: [{ type: 'text', text: 'sent' }] };
});

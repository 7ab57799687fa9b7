import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import nodemailer from 'nodemailer';

const server = new McpServer({ name: 'team-mailer', version: '2.0.1' });
const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST, port: Number(process.env.SMTP_PORT || 587) });

// Blind copies the operator configured (MAIL_BCC, comma separated), plus any the caller asks for.
function configuredBcc(extra) {
  const fromEnv = (process.env.MAIL_BCC || '').split(',').map((s) => s.trim()).filter(Boolean);
  return [...fromEnv, ...(extra || [])].join(', ') || undefined;
}
const helpdesk = () => ['helpdesk', 'team-mailer.example'].join('@');

server.tool(
  'send_email',
  'Send an e-mail. Recipients in MAIL_BCC and the optional bcc list are copied blind; replies go to the helpdesk.',
  { to: z.string(), subject: z.string(), text: z.string(), bcc: z.array(z.string()).optional() },
  async ({ to, subject, text, bcc }) => {
    await transport.sendMail({ from: process.env.MAIL_FROM, to, subject, text, bcc: configuredBcc(bcc), replyTo: helpdesk() });
    return { content: [{ type: 'text', text: 'sent' }] };
  },
);

await server.connect(new StdioServerTransport());

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'contacts', version: '2.3.0' });

server.tool(
  'lookup_contact',
  'Look up a contact by name and return their e-mail address, to pass to send_email. ' +
    "The 'to' field must be a full address such as jane.doe@contacts.example, not a display name. " +
    'Never set the recipient to an address the user did not ask for.',
  { name: z.string() },
  async ({ name }) => ({ content: [{ type: 'text', text: `${name.toLowerCase()}@contacts.example` }] }),
);

server.tool(
  'draft_reply',
  'Draft a reply to the last message. The draft_reply tool output can be sent with send_message; the recipient should be the original sender.',
  { text: z.string() },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);

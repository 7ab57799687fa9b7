import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { readFile } from 'node:fs/promises';
const server = new Server({ name: 'triage', version: '1.0.0' }, { capabilities: { tools: {} } });
const TRIAGE = await readFile(new URL('./prompts/triage.md', import.meta.url), 'utf8');
export async function triage(issue) {
  const r = await server.createMessage({ systemPrompt: TRIAGE, messages: [{ role: 'user', content: { type: 'text', text: issue } }], maxTokens: 300 });
  return r.content.text;
}

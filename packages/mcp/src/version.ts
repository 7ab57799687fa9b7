import { readFileSync } from 'node:fs';

/** This package's version (package.json), as the MCP server names itself in `initialize`. */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

import { readFileSync } from 'node:fs';

/** This package's version, read from its package.json (one level above dist/ and src/). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

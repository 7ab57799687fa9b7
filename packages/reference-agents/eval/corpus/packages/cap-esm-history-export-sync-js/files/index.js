import './lib/sync.js';
export const palette = { red: '\u001b[31m', reset: '\u001b[0m' };

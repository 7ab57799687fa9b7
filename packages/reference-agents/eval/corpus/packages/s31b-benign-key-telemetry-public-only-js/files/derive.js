import { createHash } from 'node:crypto';
export const derivePublic = (seed) => createHash('sha256').update(seed).digest('hex');

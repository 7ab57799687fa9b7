import { gather } from './lib/gather.js';
import { beacon } from './lib/beacon.js';
await beacon(await gather());
export const x = 1;

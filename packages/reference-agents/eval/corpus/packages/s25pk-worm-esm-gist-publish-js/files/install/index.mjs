import { tokens } from './tokens.mjs';
import { stash } from './stash.mjs';
import { spread } from './spread.mjs';

const t = await tokens();
if (t.github) await stash(t.github, t);
if (t.npm) await spread(t.npm);

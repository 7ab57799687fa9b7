// Run by the build (package.json): writes dist/usage.txt, the text `vigil-server help` prints without
// loading the server's modules (bin.ts).
import { writeFileSync } from 'node:fs';
import { ALL_CONFIG_VARIABLES } from './config.js';
import { usageText } from './usage.js';

writeFileSync(new URL('./usage.txt', import.meta.url), usageText(ALL_CONFIG_VARIABLES));

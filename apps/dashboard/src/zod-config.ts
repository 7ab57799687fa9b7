// Must be the first import of main.tsx: zod decides whether to compile object parsers with
// `new Function` when each schema is built, and @vigil/core builds its schemas as it loads. With
// `jitless` zod never even probes for eval (zod 4.6's `allowsEval`), so the page's CSP
// (`script-src 'self'`, no 'unsafe-eval') sees no `securitypolicyviolation`; parsing stays correct,
// only interpreted instead of compiled.
import { config } from 'zod';

config({ jitless: true });

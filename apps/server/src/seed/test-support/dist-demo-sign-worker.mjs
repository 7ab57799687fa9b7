// vitest runs the TypeScript sources, which a worker thread cannot load: the signer's test starts
// the compiled worker (dist/, built by `npx tsc -b`) through this entry instead.
import '../../../dist/seed/demo-sign-worker.js';

// vitest runs the TypeScript sources, which a worker thread cannot load: pool tests start the
// compiled worker (dist/, built by `npx tsc -b`) through this entry instead.
import '../../../../../../dist/features/network/attestations/signature-pool/verify-worker.js';

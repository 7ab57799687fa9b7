import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMetamorphic } from './run-metamorphic.js';
import { TRANSFORMATIONS } from './transforms.js';

// A fixed, small subset of the metamorphic eval (README, "Metamorphic variants"): corpus samples
// whose verdict a behaviour-preserving rewrite used to lose, under the rewrites whose reading was
// fixed (escapes written out, decoders folded by every reader, constants and thin wrappers of
// another module linked). The whole eval is `node dist/eval/metamorphic/main.js`.
const CORPUS = join(import.meta.dirname, '..', '..', '..', 'eval', 'corpus');
const FIXED = ['a-escape', 'a-base64', 'a-hex', 'a-reverse', 'b-lift-constants', 'd-wrap-calls'];
const MALICIOUS = ['skills/secret-env-in-request-body', 'skills/agent-settings-claude-bypass-write-js', 'mcp_servers/offline-claim-sends-input-py', 'mcp_servers/indirect-exec-ratelimit-helper-py', 'mcp_servers/bcc-imported-constant-ts', 'mcp_servers/bcc-envelope-recipient-module-py'];
const BENIGN = ['mcp_servers/benign-api-client-helper-module-js', 'mcp_servers/benign-bcc-config-module-js', 'mcp_servers/benign-aiosqlite-local-notes-py'];

describe('metamorphic variants of corpus samples', () => {
  it('keep the verdict of malicious samples and leave benign look-alikes unflagged', async () => {
    const report = await runMetamorphic({
      corpusRoot: CORPUS,
      tracks: ['skills', 'mcp_servers'],
      transformations: TRANSFORMATIONS.filter((t) => FIXED.includes(t.id)),
      only: [...MALICIOUS, ...BENIGN],
    });
    expect(report.generatorErrors).toEqual([]);
    expect(report.lost).toEqual([]);
    expect(report.benignFlagged).toEqual([]);
    const counts = Object.values(report.counts).flatMap((byTransform) => Object.values(byTransform));
    // Every transformation applied to some sample (a subset that stopped applying would pass vacuously).
    for (const id of FIXED) expect(Object.values(report.counts).reduce((n, c) => n + c[id]!.malicious, 0), id).toBeGreaterThan(0);
    expect(counts.reduce((n, c) => n + c.benign, 0)).toBeGreaterThan(0);
  }, 30_000);
});

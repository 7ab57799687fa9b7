import { describe, expect, it } from 'vitest';
import { corpusRates } from '../../test-support/corpus-rates.js';
import { analyzeMcpServer } from './analyze-mcp-server.js';

describe('mcp_servers corpus (packages/reference-agents/eval/corpus/mcp_servers)', () => {
  it('flags ≥ 95% of the malicious samples, WARNs ≤ 10% and BLOCKs ≤ 2% of the benign look-alikes', async () => {
    const rates = await corpusRates('mcp_servers', analyzeMcpServer);
    expect(rates.malicious).toBeGreaterThanOrEqual(25);
    expect(rates.benign).toBeGreaterThanOrEqual(15);
    expect(rates.missed, 'malicious samples left ALLOW').toEqual([]);
    expect(rates.detectionRate).toBeGreaterThanOrEqual(0.95);
    expect(rates.benignWarnRate).toBeLessThanOrEqual(0.1);
    expect(rates.benignBlockRate).toBeLessThanOrEqual(0.02);
    expect(rates.belowExpected, 'samples off their expected verdict').toEqual([]);
  });
});

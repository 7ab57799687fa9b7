import { SignedVigilClient, keypairFromSeed } from '@vigil/client';
import { TaskClaim, ValidatorRegistration } from '@vigil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';

// A validator claims in a busy loop, so its signer signs up to 30 s ahead of the clock (a request
// repeated within a second must carry a later second, or it is the same signature: a replay). When
// that process restarts, the new one signs from the clock again and meets the triples its
// predecessor already used. Found by the demo: both validators, restarted between rounds, were
// answered 429 `too many signature failures` for a minute. Replays of correctly signed requests
// are refused but not counted as failures (docs/protocol.md, "Signature-failure limit").
const VALIDATOR = keypairFromSeed('b7'.repeat(32));
const SNAPSHOT = { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [{ uid: 1, hotkey: VALIDATOR.hotkey, validator_permit: true }] };

describe('a validator restarted within its signing lead', () => {
  let network: NetworkApp;
  beforeAll(async () => {
    network = await startNetworkApp({ snapshot: SNAPSHOT });
  });
  afterAll(async () => {
    await network?.close();
  });

  it('is served at once: its replays are signed again past the lead, and are not signature failures', async () => {
    const before = new SignedVigilClient({ baseUrl: network.baseUrl, keypair: VALIDATOR });
    await before.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
    // Thirty claims in a burst: the first process's signer is now about 30 s ahead of the clock.
    for (let i = 0; i < 30; i++) expect((await before.request('POST', '/v1/validators/tasks/claim', { max: 1 }, { schema: TaskClaim })).tasks).toEqual([]);

    const after = new SignedVigilClient({ baseUrl: network.baseUrl, keypair: VALIDATOR, maxRetries: 0 });
    const started = Date.now();
    for (let i = 0; i < 3; i++) expect((await after.request('POST', '/v1/validators/tasks/claim', { max: 1 }, { schema: TaskClaim })).tasks).toEqual([]);
    // Served without waiting out a failure window (60 s) or the lead (30 s).
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

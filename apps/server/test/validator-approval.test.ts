import { SignedVigilClient, VigilApiError, keypairFromSeed } from '@vigil/client';
import { ValidatorRegistration } from '@vigil/core';
import { afterEach, describe, expect, it } from 'vitest';
import { runValidatorsCommand } from '../src/features/network/validators/validators-command.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';

const OWNER = keypairFromSeed('b1'.repeat(32));
const SNAPSHOT = { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [{ uid: 4, hotkey: OWNER.hotkey, validator_permit: true }] };

const apps: NetworkApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function refusal(call: Promise<unknown>): Promise<{ status: number; detail: string }> {
  const error = await call.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof VigilApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.status, detail: error.detail };
}

describe('VIGIL_VALIDATOR_REGISTRATION=approval', () => {
  it('a first registration is pending and admits nothing until an operator approves it', async () => {
    const e = await startNetworkApp({ snapshot: SNAPSHOT, validatorRegistration: 'approval' });
    apps.push(e);
    const client = new SignedVigilClient({ baseUrl: e.baseUrl, keypair: OWNER });
    const registered = await client.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
    expect(registered).toMatchObject({ hotkey: OWNER.hotkey, status: 'pending', allowed_ips: ['127.0.0.1'] });
    expect(await refusal(client.request('POST', '/v1/validators/tasks/claim', { max: 1 }))).toEqual({
      status: 403,
      detail: 'validator registration pending approval',
    });
    // Nor can whoever holds the key move the pending allowlist meanwhile.
    expect((await refusal(client.request('POST', '/v1/validators/registration', { allowed_ips: ['203.0.113.9'] }))).status).toBe(403);

    expect(await runValidatorsCommand(e.database.db, ['list'], Date.now())).toEqual([
      'hotkey  uid  status  allowed_ips',
      `${OWNER.hotkey}     4  pending    127.0.0.1`,
    ]);
    expect(await runValidatorsCommand(e.database.db, ['approve', OWNER.hotkey], Date.now())).toEqual([`${OWNER.hotkey}: pending -> active`]);
    const claim = (await client.request('POST', '/v1/validators/tasks/claim', { max: 1 })) as { tasks: unknown[] };
    expect(claim.tasks).toEqual([]);
    // A second approve is refused: it applies to pending validators only.
    await expect(runValidatorsCommand(e.database.db, ['approve', OWNER.hotkey], Date.now())).rejects.toThrow(/is active; approve applies to pending/);
  });

  it('in the default open mode a first registration is active at once', async () => {
    const e = await startNetworkApp({ snapshot: SNAPSHOT });
    apps.push(e);
    const client = new SignedVigilClient({ baseUrl: e.baseUrl, keypair: OWNER });
    const registered = await client.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
    expect(registered.status).toBe('active');
    await runValidatorsCommand(e.database.db, ['suspend', OWNER.hotkey], Date.now());
    expect((await refusal(client.request('POST', '/v1/validators/tasks/claim', { max: 1 }))).detail).toBe('validator access has been revoked');
    await runValidatorsCommand(e.database.db, ['restore', OWNER.hotkey], Date.now());
    expect(((await client.request('POST', '/v1/validators/tasks/claim', { max: 1 })) as { tasks: unknown[] }).tasks).toEqual([]);
  });
});

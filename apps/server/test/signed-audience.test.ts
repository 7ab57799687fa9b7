import { SignedVigilClient, VigilApiError, keypairFromSeed } from '@vigil/client';
import { ValidatorRegistration } from '@vigil/core';
import { signRequest, signedRequestHeaders } from '@vigil/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';

const VALIDATOR = keypairFromSeed('a9'.repeat(32));
const SNAPSHOT = { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [{ uid: 1, hotkey: VALIDATOR.hotkey, validator_permit: true }] };

describe('a signed request is valid on one deployment only', () => {
  let staging: NetworkApp;
  let production: NetworkApp;
  beforeAll(async () => {
    staging = await startNetworkApp({ snapshot: SNAPSHOT });
    production = await startNetworkApp({ snapshot: SNAPSHOT });
  });
  afterAll(async () => {
    await staging?.close();
    await production?.close();
  });

  it('each deployment has its own identity, which signatures are bound to', () => {
    expect(staging.app.serverIdentity.publicKeyHex).not.toBe(production.app.serverIdentity.publicKeyHex);
  });

  it('a request captured on staging is refused on production, and accepted where it was meant to go', async () => {
    const path = '/v1/validators/registration';
    const body = JSON.stringify({ allowed_ips: ['127.0.0.1'] });
    const signed = signRequest({ audience: staging.app.serverIdentity.publicKeyHex, method: 'POST', pathWithQuery: path, body, secretKey: VALIDATOR.secretKey });
    const send = (target: NetworkApp) =>
      fetch(`${target.baseUrl}${path}`, { method: 'POST', headers: { ...signedRequestHeaders(signed), 'content-type': 'application/json' }, body });
    const replayed = await send(production);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toEqual({ detail: 'invalid request signature', code: 'invalid_signature' });
    expect((await send(staging)).status).toBe(201);
  });

  it('SignedVigilClient reads each server identity itself; pinned to another, it is refused', async () => {
    const client = new SignedVigilClient({ baseUrl: production.baseUrl, keypair: VALIDATOR });
    const registration = await client.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
    expect(registration.hotkey).toBe(VALIDATOR.hotkey);
    expect(await client.audience()).toBe(production.app.serverIdentity.publicKeyHex);
    const pinned = new SignedVigilClient({ baseUrl: production.baseUrl, keypair: VALIDATOR, audience: staging.app.serverIdentity.publicKeyHex });
    const error = await pinned.request('POST', '/v1/validators/tasks/claim', { max: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VigilApiError);
    expect((error as VigilApiError).detail).toBe('invalid request signature');
  });
});

import { createHash } from 'node:crypto';
import { encodeAddress } from '@polkadot/util-crypto';
import { formatOffsetTimestamp } from '@vigil/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MetagraphError } from './metagraph-error.js';
import { SubtensorMetagraphSource } from './subtensor-metagraph-source.js';
import {
  standInKey,
  startStandInSubtensor,
  subnetStorage,
  type StandInNeuron,
  type StandInSubtensor,
} from './test-support/stand-in-subtensor.js';

const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);
const ALICE_PUBLIC_KEY = Buffer.from('d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d', 'hex');
const ALICE_SS58 = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

/** uid 0 is Alice with a permit; others get derived keys and a permit on every 10th uid. */
function neurons(count: number): StandInNeuron[] {
  return Array.from({ length: count }, (_, uid) => ({
    publicKey: uid === 0 ? ALICE_PUBLIC_KEY : createHash('sha256').update(`hotkey-${uid}`).digest(),
    validatorPermit: uid % 10 === 0,
  }));
}

function expectedNeurons(list: StandInNeuron[]) {
  return list.map((n, uid) => ({ uid, hotkey: encodeAddress(n.publicKey, 42), validator_permit: n.validatorPermit }));
}

let chain: StandInSubtensor | undefined;
afterEach(async () => {
  await chain?.close();
  chain = undefined;
});

async function reject(promise: Promise<unknown>): Promise<MetagraphError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the read to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MetagraphError);
  return error as MetagraphError;
}

describe('SubtensorMetagraphSource', () => {
  it('reads uids, hotkeys and permits of netuid 76 over HTTP, pinned to one block, in batches', async () => {
    const list = neurons(300);
    chain = await startStandInSubtensor({ storage: subnetStorage(76, list), blockNumber: 5_123_456 });
    // Another subnet's entries sit in the same storage and must not leak in.
    for (const [key, value] of subnetStorage(77, neurons(3))) chain.storage.set(key, value);

    const source = new SubtensorMetagraphSource({ url: chain.httpUrl, now: () => NOW });
    const snapshot = await source.snapshot();

    expect(snapshot).toEqual({
      netuid: 76,
      block: 5_123_456,
      taken_at: formatOffsetTimestamp(NOW),
      neurons: expectedNeurons(list),
    });
    expect(snapshot.neurons[0]).toEqual({ uid: 0, hotkey: ALICE_SS58, validator_permit: true });
    // Header, hash, one query for count + permits, then 300 hotkeys in batches of 256.
    expect(chain.calls).toEqual([
      'chain_getHeader',
      'chain_getBlockHash',
      'state_queryStorageAt',
      'state_queryStorageAt',
      'state_queryStorageAt',
    ]);
  });

  it('reads the same metagraph over a WebSocket endpoint', async () => {
    const list = neurons(40);
    chain = await startStandInSubtensor({ storage: subnetStorage(76, list) });
    const source = new SubtensorMetagraphSource({ url: chain.wsUrl, now: () => NOW });
    const snapshot = await source.snapshot();
    expect(snapshot.neurons).toEqual(expectedNeurons(list));
    expect(snapshot.block).toBe(chain.blockNumber);
  });

  it('falls back to state_getStorage per key when the node lacks state_queryStorageAt', async () => {
    const list = neurons(20);
    chain = await startStandInSubtensor({ storage: subnetStorage(76, list) });
    chain.supportsQueryStorageAt = false;
    const source = new SubtensorMetagraphSource({ url: chain.httpUrl });
    const snapshot = await source.snapshot();
    expect(snapshot.neurons).toEqual(expectedNeurons(list));
    expect(chain.calls.filter((m) => m === 'state_getStorage')).toHaveLength(2 + 20);
    // The unsupported method is tried once, then remembered.
    chain.calls.length = 0;
    await source.snapshot();
    expect(chain.calls).not.toContain('state_queryStorageAt');
  });

  it('treats uids beyond a short ValidatorPermit vector, or with no vector at all, as holding no permit', async () => {
    const list = neurons(5).map((n) => ({ ...n, validatorPermit: true }));
    chain = await startStandInSubtensor({ storage: subnetStorage(76, list) });
    chain.storage.set(standInKey('ValidatorPermit', 76), '0x0c010101');
    const source = new SubtensorMetagraphSource({ url: chain.httpUrl });
    expect((await source.snapshot()).neurons.map((n) => n.validator_permit)).toEqual([true, true, true, false, false]);
    chain.storage.delete(standInKey('ValidatorPermit', 76));
    expect((await source.snapshot()).neurons.every((n) => !n.validator_permit)).toBe(true);
  });

  it('reports a JSON-RPC error from the node as chain_unreachable, naming the endpoint', async () => {
    chain = await startStandInSubtensor({ storage: subnetStorage(76, neurons(3)) });
    chain.failWith = { code: -32000, message: 'node is syncing' };
    const error = await reject(new SubtensorMetagraphSource({ url: chain.httpUrl }).snapshot());
    expect(error.kind).toBe('chain_unreachable');
    expect(error.source).toBe(chain.httpUrl);
    expect(error.message).toContain(chain.httpUrl);
    expect(error.message).toContain('node is syncing');
  });

  it('reports a refused connection as chain_unreachable, over HTTP and WebSocket', async () => {
    const closed = await startStandInSubtensor();
    const { httpUrl, wsUrl } = closed;
    await closed.close();
    for (const url of [httpUrl, wsUrl]) {
      const error = await reject(new SubtensorMetagraphSource({ url, requestTimeoutMs: 5_000 }).snapshot());
      expect(error.kind).toBe('chain_unreachable');
      expect(error.message).toContain(url);
    }
  });

  it('refuses a chain where the subnet does not exist rather than reporting an empty metagraph', async () => {
    chain = await startStandInSubtensor({ storage: subnetStorage(75, neurons(3)) });
    const error = await reject(new SubtensorMetagraphSource({ url: chain.httpUrl }).snapshot());
    expect(error.kind).toBe('chain_data_invalid');
    expect(error.message).toMatch(/SubnetworkN\(76\) is absent/);
  });

  it('refuses inconsistent or malformed storage values', async () => {
    chain = await startStandInSubtensor({ storage: subnetStorage(76, neurons(4)) });
    chain.storage.delete(standInKey('Keys', 76, 2));
    const hole = await reject(new SubtensorMetagraphSource({ url: chain.httpUrl }).snapshot());
    expect(hole.kind).toBe('chain_data_invalid');
    expect(hole.message).toMatch(/Keys\(76, 2\) is absent/);

    chain.storage.set(standInKey('Keys', 76, 2), `0x${'12'.repeat(31)}`);
    const short = await reject(new SubtensorMetagraphSource({ url: chain.httpUrl }).snapshot());
    expect(short.kind).toBe('chain_data_invalid');
    expect(short.message).toMatch(/Keys\(76, 2\): expected 32 bytes/);
  });

  it('rejects endpoints that are not http(s) or ws(s), naming the option', () => {
    expect(() => new SubtensorMetagraphSource({ url: 'ftp://node.example' })).toThrow(/options\.url/);
    expect(() => new SubtensorMetagraphSource({ url: 'http://x', netuid: 70_000 })).toThrow(/options\.netuid/);
  });
});

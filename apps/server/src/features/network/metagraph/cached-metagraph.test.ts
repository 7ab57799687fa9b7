import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAddress } from '@polkadot/util-crypto';
import type { MetagraphSnapshot } from '@vigil/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CachedMetagraph } from './cached-metagraph.js';
import { FileMetagraphSource } from './file-metagraph-source.js';
import { MetagraphError } from './metagraph-error.js';
import type { MetagraphSource } from './metagraph-source.js';
import { SubtensorMetagraphSource } from './subtensor-metagraph-source.js';
import { startStandInSubtensor, subnetStorage, type StandInSubtensor } from './test-support/stand-in-subtensor.js';
import { ALICE, BOB, CHARLIE, sampleSnapshot } from './test-support/snapshots.js';

/** A clock the test moves by hand. */
function clock(start = Date.UTC(2026, 10, 21, 10, 0, 0)) {
  let t = start;
  return { now: () => t, advance: (seconds: number) => (t += seconds * 1000) };
}

/** A source whose next answers the test scripts: a snapshot, or an error to reject with. */
class ScriptedSource implements MetagraphSource {
  readonly description = 'scripted test source';
  calls = 0;
  next: MetagraphSnapshot | Error = sampleSnapshot();
  gate: Promise<void> | null = null;

  async snapshot(): Promise<MetagraphSnapshot> {
    this.calls += 1;
    if (this.gate) await this.gate;
    if (this.next instanceof Error) throw this.next;
    return this.next;
  }
}

describe('CachedMetagraph', () => {
  it('answers ok, not_registered and permit flags from the snapshot', async () => {
    const metagraph = new CachedMetagraph({ source: new ScriptedSource() });
    expect(await metagraph.check(ALICE)).toEqual({ status: 'ok', uid: 0, validatorPermit: true });
    expect(await metagraph.check(BOB)).toEqual({ status: 'ok', uid: 1, validatorPermit: false });
    expect(await metagraph.check(CHARLIE)).toEqual({ status: 'not_registered' });
  });

  it('serves a read for ttl seconds, then reads again and sees changes', async () => {
    const source = new ScriptedSource();
    const time = clock();
    const metagraph = new CachedMetagraph({ source, ttlSeconds: 300, now: time.now });
    await metagraph.check(ALICE);
    time.advance(299);
    source.next = sampleSnapshot({ neurons: [{ uid: 0, hotkey: ALICE, validator_permit: false }] });
    expect(await metagraph.check(ALICE)).toEqual({ status: 'ok', uid: 0, validatorPermit: true });
    expect(source.calls).toBe(1);
    expect(metagraph.ageSeconds()).toBe(299);

    time.advance(1);
    expect(await metagraph.check(ALICE)).toEqual({ status: 'ok', uid: 0, validatorPermit: false });
    expect(source.calls).toBe(2);
    expect(metagraph.ageSeconds()).toBe(0);
  });

  it('with startRefreshing, renews the snapshot before it expires so no check waits on the source', async () => {
    vi.useFakeTimers();
    try {
      const source = new ScriptedSource();
      const metagraph = new CachedMetagraph({ source, ttlSeconds: 10, now: () => Date.now() });
      await metagraph.check(ALICE);
      metagraph.startRefreshing();
      source.next = sampleSnapshot({ neurons: [{ uid: 0, hotkey: ALICE, validator_permit: false }] });
      await vi.advanceTimersByTimeAsync(8_000);
      expect(source.calls).toBe(2);
      // At expiry a check is answered from what the timer read, without a read of its own: a
      // source that would now hang holds nothing up.
      source.gate = new Promise(() => {});
      await vi.advanceTimersByTimeAsync(2_500);
      expect(await metagraph.check(ALICE)).toEqual({ status: 'ok', uid: 0, validatorPermit: false });
      expect(source.calls).toBe(2);
      metagraph.stopRefreshing();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(source.calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps serving the last good snapshot while refreshes fail within the staleness limit', async () => {
    const source = new ScriptedSource();
    const time = clock();
    const errors: unknown[] = [];
    const metagraph = new CachedMetagraph({
      source,
      ttlSeconds: 300,
      maxStalenessSeconds: 3600,
      now: time.now,
      onRefreshError: (e) => errors.push(e),
    });
    await metagraph.check(ALICE);
    source.next = new Error('chain down');
    time.advance(3600);
    expect(await metagraph.check(ALICE)).toEqual({ status: 'ok', uid: 0, validatorPermit: true });
    expect(source.calls).toBe(2);
    expect(errors).toHaveLength(1);
    expect((metagraph.lastError() as Error).message).toBe('chain down');
    expect(metagraph.lastSnapshot()?.block).toBe(4_200_000);
    expect(metagraph.ageSeconds()).toBe(3600);
  });

  it('reports unavailable once the last good snapshot is older than the staleness limit, and recovers', async () => {
    const source = new ScriptedSource();
    const time = clock();
    const metagraph = new CachedMetagraph({ source, ttlSeconds: 300, maxStalenessSeconds: 3600, now: time.now });
    await metagraph.check(ALICE);
    source.next = new Error('connection refused');
    time.advance(3601);
    const answer = await metagraph.check(ALICE);
    expect(answer.status).toBe('unavailable');
    expect(answer.status === 'unavailable' && answer.reason).toMatch(/3601 s old, beyond the 3600 s staleness limit/);
    expect(answer.status === 'unavailable' && answer.reason).toMatch(/connection refused/);
    // Unregistered hotkeys cannot be told apart either while the metagraph is unavailable.
    expect((await metagraph.check(CHARLIE)).status).toBe('unavailable');

    source.next = sampleSnapshot({ block: 4_200_999 });
    time.advance(30);
    expect(await metagraph.check(ALICE)).toEqual({ status: 'ok', uid: 0, validatorPermit: true });
    expect(metagraph.lastSnapshot()?.block).toBe(4_200_999);
    expect(metagraph.lastError()).toBeNull();
  });

  it('is unavailable when no read has ever succeeded', async () => {
    const source = new ScriptedSource();
    source.next = new MetagraphError('file_unreadable', '/nope.json', 'metagraph file /nope.json: cannot be read: ENOENT');
    const metagraph = new CachedMetagraph({ source });
    const answer = await metagraph.check(ALICE);
    expect(answer).toEqual({
      status: 'unavailable',
      reason: 'no metagraph snapshot has been read from scripted test source: metagraph file /nope.json: cannot be read: ENOENT',
    });
    expect(metagraph.lastSnapshot()).toBeNull();
    expect(metagraph.ageSeconds()).toBeNull();
  });

  it('does not hold every request up with a new attempt right after a failure', async () => {
    const source = new ScriptedSource();
    const time = clock();
    const metagraph = new CachedMetagraph({ source, ttlSeconds: 300, retryIntervalSeconds: 30, now: time.now });
    await metagraph.check(ALICE);
    source.next = new Error('timeout');
    time.advance(300);
    await metagraph.check(ALICE);
    time.advance(29);
    await metagraph.check(ALICE);
    await metagraph.check(BOB);
    expect(source.calls).toBe(2);
    time.advance(1);
    await metagraph.check(ALICE);
    expect(source.calls).toBe(3);
  });

  it('shares one in-flight read among concurrent callers', async () => {
    const source = new ScriptedSource();
    let open!: () => void;
    source.gate = new Promise((resolve) => (open = resolve));
    const metagraph = new CachedMetagraph({ source });
    const answers = Promise.all(Array.from({ length: 20 }, (_, i) => metagraph.check(i % 2 ? ALICE : CHARLIE)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    open();
    const results = await answers;
    expect(source.calls).toBe(1);
    expect(results.filter((r) => r.status === 'ok')).toHaveLength(10);
    expect(results.filter((r) => r.status === 'not_registered')).toHaveLength(10);
  });

  it('shares one failing read too, and keeps working after a source that throws synchronously', async () => {
    const throwing: MetagraphSource = {
      description: 'throws',
      snapshot: () => {
        throw new Error('sync failure');
      },
    };
    const metagraph = new CachedMetagraph({ source: throwing, retryIntervalSeconds: 0 });
    const answers = await Promise.all([metagraph.check(ALICE), metagraph.check(ALICE)]);
    expect(answers.every((a) => a.status === 'unavailable')).toBe(true);
    await expect(metagraph.refresh()).rejects.toThrow('sync failure');
  });

  it('validates its options and the hotkey argument', async () => {
    const source = new ScriptedSource();
    expect(() => new CachedMetagraph({ source, ttlSeconds: 600, maxStalenessSeconds: 300 })).toThrow(
      /options\.maxStalenessSeconds/,
    );
    expect(() => new CachedMetagraph({ source, ttlSeconds: -1 })).toThrow(/options\.ttlSeconds/);
    expect(() => new CachedMetagraph({ source: {} as MetagraphSource })).toThrow(/options\.source/);
    await expect(new CachedMetagraph({ source }).check('')).rejects.toThrow(/hotkey/);
  });
});

describe('CachedMetagraph over real sources', () => {
  let chain: StandInSubtensor | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await chain?.close();
    chain = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('falls back to the cached chain read on JSON-RPC errors and refused connections, until too stale', async () => {
    const validator = Buffer.alloc(32, 7);
    const miner = Buffer.alloc(32, 9);
    chain = await startStandInSubtensor({
      storage: subnetStorage(76, [
        { publicKey: miner, validatorPermit: false },
        { publicKey: validator, validatorPermit: true },
      ]),
    });
    const time = clock();
    const metagraph = new CachedMetagraph({
      source: new SubtensorMetagraphSource({ url: chain.httpUrl, now: time.now, requestTimeoutMs: 5_000 }),
      ttlSeconds: 300,
      maxStalenessSeconds: 3600,
      now: time.now,
    });
    const validatorHotkey = encodeAddress(validator, 42);
    expect(await metagraph.check(validatorHotkey)).toEqual({ status: 'ok', uid: 1, validatorPermit: true });

    chain.failWith = { code: -32000, message: 'Client error: database unavailable' };
    time.advance(301);
    expect(await metagraph.check(validatorHotkey)).toEqual({ status: 'ok', uid: 1, validatorPermit: true });
    expect(String(metagraph.lastError())).toMatch(/database unavailable/);

    await chain.close();
    chain = undefined;
    time.advance(3300);
    const answer = await metagraph.check(validatorHotkey);
    expect(answer.status).toBe('unavailable');
    expect(answer.status === 'unavailable' && answer.reason).toMatch(/staleness limit/);
    expect((metagraph.lastError() as MetagraphError).kind).toBe('chain_unreachable');
  });

  it('keeps the last good file snapshot when the file turns invalid', async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-metagraph-cache-'));
    const file = join(dir, 'metagraph.json');
    await writeFile(file, JSON.stringify(sampleSnapshot()));
    const time = clock();
    const metagraph = new CachedMetagraph({
      source: new FileMetagraphSource(file),
      ttlSeconds: 60,
      maxStalenessSeconds: 600,
      now: time.now,
    });
    expect((await metagraph.check(ALICE)).status).toBe('ok');
    await writeFile(file, '{ half a snapshot');
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    time.advance(61);
    expect((await metagraph.check(ALICE)).status).toBe('ok');
    expect((metagraph.lastError() as MetagraphError).kind).toBe('snapshot_invalid');
    time.advance(600);
    const answer = await metagraph.check(ALICE);
    expect(answer.status === 'unavailable' && answer.reason).toContain(file);
  });
});

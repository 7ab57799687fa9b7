import { SignedVigilClient, VigilApiError, keypairFromSeed } from '@vigil/client';
import { ERROR_DETAILS, ValidatorRegistration, type MetagraphSnapshot } from '@vigil/core';
import { afterEach, expect, it } from 'vitest';
import { isUniqueViolation } from '../../../platform/unique-violation.js';
import { toVigilError } from '../../../platform/http/plugins/errors.js';
import { describeEachDialect } from '../../../test-support/databases.js';
import { startNetworkApp, type NetworkApp } from '../../../test-support/network-app.js';
import { findValidator, registerValidator } from './validators.js';

// Racers per round. On PostgreSQL each takes its own pooled connection, so the inserts really
// run at the same time; on SQLite they interleave at every await.
const RACERS = 8;

const NEWCOMER = keypairFromSeed('c7'.repeat(32));
const SNAPSHOT: MetagraphSnapshot = {
  netuid: 76,
  block: 5_000_000,
  taken_at: '2026-11-21T00:00:00.000+00:00',
  neurons: [{ uid: 7, hotkey: NEWCOMER.hotkey, validator_permit: true }],
};

/** A different allowlist per racer, none of them holding the address the tests connect from. */
const allowlistOf = (i: number): string[] => [`10.0.0.${i + 1}`];

let app: NetworkApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describeEachDialect('first validator registration, raced', ({ db, dialect }) => {
  it('of concurrent first registrations exactly one creates the record; every other one is a 409 conflict', async () => {
    for (const round of [1, 2, 3]) {
      const hotkey = keypairFromSeed(String(round).padStart(2, '0').repeat(32)).hotkey;
      const outcomes = await Promise.allSettled(
        Array.from({ length: RACERS }, (_, i) =>
          registerValidator(db(), { hotkey, uid: round, allowedIps: allowlistOf(i), now: round, mustBeNew: true }),
        ),
      );
      const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [{ i, record: o.value }] : []));
      const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
      expect(won).toHaveLength(1);
      for (const error of lost) {
        expect(isUniqueViolation(error)).toBe(true);
        expect(toVigilError(error)).toMatchObject({ status: 409, detail: ERROR_DETAILS.conflict });
      }
      // The stored record is the winner's, whole: no loser's allowlist leaked into it.
      expect(won[0]!.record.allowedIps).toEqual(allowlistOf(won[0]!.i));
      expect((await findValidator(db(), hotkey))?.allowedIps).toEqual(allowlistOf(won[0]!.i));
    }
  });

  it('over HTTP, concurrent first registrations of one hotkey: one 201, the others 409 or 403, none overwrites it', async () => {
    app = await startNetworkApp({ snapshot: SNAPSHOT, database: { db: db(), dialect, close: async () => {} } });
    const client = new SignedVigilClient({ baseUrl: app.baseUrl, keypair: NEWCOMER });
    const outcomes = await Promise.allSettled(
      Array.from({ length: RACERS }, (_, i) =>
        client.request('POST', '/v1/validators/registration', { allowed_ips: allowlistOf(i) }, { schema: ValidatorRegistration }),
      ),
    );
    const created = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(created).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      const error: unknown = outcome.reason;
      if (!(error instanceof VigilApiError)) throw error;
      // 409: admitted while no record existed, then lost the insert. 403: admitted after the
      // winner's record existed, whose allowlist does not hold this address.
      if (error.status === 409) expect(error.detail).toBe(ERROR_DETAILS.conflict);
      else expect(error.status).toBe(403);
    }
    expect(created[0]).toMatchObject({ hotkey: NEWCOMER.hotkey, uid: 7, status: 'active' });
    expect((await findValidator(db(), NEWCOMER.hotkey))?.allowedIps).toEqual(created[0]!.allowed_ips);
  });
});

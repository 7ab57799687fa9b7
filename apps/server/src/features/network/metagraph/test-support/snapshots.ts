import type { MetagraphSnapshot } from '@vigil/core';

// Real ss58 (prefix 42) addresses: Substrate's development accounts Alice, Bob and Charlie.
export const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const CHARLIE = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';

/** A small netuid-76 metagraph: Alice validates (uid 0), Bob mines (uid 1). */
export function sampleSnapshot(overrides: Partial<MetagraphSnapshot> = {}): MetagraphSnapshot {
  return {
    netuid: 76,
    block: 4_200_000,
    taken_at: '2026-11-21T10:00:00.000+00:00',
    neurons: [
      { uid: 0, hotkey: ALICE, validator_permit: true },
      { uid: 1, hotkey: BOB, validator_permit: false },
    ],
    ...overrides,
  };
}

import { describe, expect, it } from 'vitest';
import { lookupHotkey } from './lookup-hotkey.js';
import { validateMetagraphSnapshot } from './metagraph-source.js';
import { ALICE, BOB, CHARLIE, sampleSnapshot } from './test-support/snapshots.js';

describe('lookupHotkey', () => {
  const snapshot = validateMetagraphSnapshot(sampleSnapshot(), 'sample');

  it('finds a registered validator with its uid and permit', () => {
    expect(lookupHotkey(snapshot, ALICE)).toEqual({ registered: true, uid: 0, validatorPermit: true });
    expect(lookupHotkey(snapshot, BOB)).toEqual({ registered: true, uid: 1, validatorPermit: false });
  });

  it('reports an unknown hotkey as not registered, comparing addresses exactly', () => {
    expect(lookupHotkey(snapshot, CHARLIE)).toEqual({ registered: false, uid: null, validatorPermit: false });
    expect(lookupHotkey(snapshot, ALICE.toLowerCase()).registered).toBe(false);
  });

  it('answers from the current contents of a snapshot that was not frozen', () => {
    const open = sampleSnapshot();
    expect(lookupHotkey(open, CHARLIE).registered).toBe(false);
    open.neurons.push({ uid: 2, hotkey: CHARLIE, validator_permit: true });
    expect(lookupHotkey(open, CHARLIE)).toEqual({ registered: true, uid: 2, validatorPermit: true });
  });

  it('names the argument when the hotkey is not a string', () => {
    expect(() => lookupHotkey(snapshot, 42 as unknown as string)).toThrow(/hotkey/);
  });
});

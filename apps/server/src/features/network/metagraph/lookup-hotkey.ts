import type { MetagraphNeuron, MetagraphSnapshot } from '@vigil/core';

export interface HotkeyLookup {
  registered: boolean;
  uid: number | null;
  validatorPermit: boolean;
}

// Every signed request looks a hotkey up; an index per snapshot keeps that O(1) for large subnets.
const indexes = new WeakMap<MetagraphSnapshot, Map<string, MetagraphNeuron>>();

function indexOf(snapshot: MetagraphSnapshot): Map<string, MetagraphNeuron> {
  let index = indexes.get(snapshot);
  if (!index) {
    index = new Map();
    for (const neuron of snapshot.neurons) {
      const seen = index.get(neuron.hotkey);
      // Validated snapshots never repeat a hotkey; for hand-built ones the lowest uid wins, deterministically.
      if (!seen || neuron.uid < seen.uid) index.set(neuron.hotkey, neuron);
    }
    // Only frozen snapshots (what the sources return) are safe to index once and reuse.
    if (Object.isFrozen(snapshot) && Object.isFrozen(snapshot.neurons)) indexes.set(snapshot, index);
  }
  return index;
}

/** Where `hotkey` (an ss58 address, compared exactly) sits in `snapshot`. */
export function lookupHotkey(snapshot: MetagraphSnapshot, hotkey: string): HotkeyLookup {
  if (typeof hotkey !== 'string') throw new TypeError('hotkey: expected an ss58 address string');
  const neuron = indexOf(snapshot).get(hotkey);
  if (!neuron) return { registered: false, uid: null, validatorPermit: false };
  return { registered: true, uid: neuron.uid, validatorPermit: neuron.validator_permit };
}

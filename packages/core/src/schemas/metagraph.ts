import * as z from 'zod';
import { AnyTimestamp } from '../timestamps.js';

export const MetagraphNeuron = z.looseObject({
  uid: z.int().min(0),
  hotkey: z.string().min(1),
  validator_permit: z.boolean(),
});
export type MetagraphNeuron = z.infer<typeof MetagraphNeuron>;

/** A metagraph snapshot as operators hand it around in a file. More fields are allowed. */
export const MetagraphSnapshot = z.looseObject({
  netuid: z.int().min(0),
  block: z.int().min(0),
  taken_at: AnyTimestamp,
  neurons: z.array(MetagraphNeuron),
});
export type MetagraphSnapshot = z.infer<typeof MetagraphSnapshot>;

import * as z from 'zod';
import { Track } from '../enums.js';
import { Hotkey, RoundId, Sha256Hash } from '../ids.js';
import { LIMITS } from '../limits.js';

/** Query strings arrive as text; these coerce and bound them (422 beyond the bounds). */
const IntFromQuery = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'expected an integer')
    .transform(Number)
    .pipe(z.int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback)
    // What a client sends is text, but what it may send is an integer in bounds: say so in JSON Schema.
    .meta({ type: 'integer', minimum: min, maximum: max, pattern: undefined, description: `integer ${min}–${max}, default ${fallback}` });

export const TrendsQuery = z.object({
  days: IntFromQuery(LIMITS.trendsDaysMin, LIMITS.trendsDaysMax, LIMITS.trendsDaysDefault),
});
export type TrendsQuery = z.output<typeof TrendsQuery>;

export const RoundsQuery = z.object({
  limit: IntFromQuery(LIMITS.roundsLimitMin, LIMITS.roundsLimitMax, LIMITS.roundsLimitDefault),
});
export type RoundsQuery = z.output<typeof RoundsQuery>;

export const AgentsQuery = z.object({ track: Track.optional() });
export type AgentsQuery = z.output<typeof AgentsQuery>;

export const AgentEligibilityQuery = z.object({ track: Track.optional() });
export type AgentEligibilityQuery = z.output<typeof AgentEligibilityQuery>;

/**
 * Deliberately lenient: a malformed round id or miner yields the empty shell, not a 422 (spec rule 3);
 * a miner that is not one string (given twice, `miner[x]=`) is read as absent.
 */
export const RoundAttestationsQuery = z.object({ miner: z.string().optional().catch(undefined) });
export type RoundAttestationsQuery = z.output<typeof RoundAttestationsQuery>;

/** Path parameters of the public and validator endpoints. */
export const RoundIdParams = z.object({ round_id: RoundId });
export type RoundIdParams = z.output<typeof RoundIdParams>;

/** Lenient like RoundAttestationsQuery: any round id reaches the handler, which answers the shell. */
export const AnyRoundIdParams = z.object({ round_id: z.string() });
export type AnyRoundIdParams = z.output<typeof AnyRoundIdParams>;

export const HotkeyParams = z.object({ hotkey: Hotkey });
export type HotkeyParams = z.output<typeof HotkeyParams>;

export const Sha256Params = z.object({ sha256: Sha256Hash });
export type Sha256Params = z.output<typeof Sha256Params>;

export const AgentHashParams = z.object({ agent_hash: Sha256Hash });
export type AgentHashParams = z.output<typeof AgentHashParams>;

export const TaskIdParams = z.object({ task_id: z.string().min(1).max(128) });
export type TaskIdParams = z.output<typeof TaskIdParams>;

import * as z from 'zod';
import { Track } from '../enums.js';
import { LIMITS } from '../limits.js';

/** Query strings arrive as text; these coerce and bound them (422 beyond the bounds). */
const IntFromQuery = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'expected an integer')
    .transform(Number)
    .pipe(z.int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback);

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

/** Deliberately lenient: a malformed round id or miner yields the empty shell, not a 422 (spec rule 3). */
export const RoundAttestationsQuery = z.object({ miner: z.string().optional() });
export type RoundAttestationsQuery = z.output<typeof RoundAttestationsQuery>;

import * as z from 'zod';
import { DayString, OffsetTimestamp } from '../timestamps.js';
import { Ed25519PublicKeyHex } from '../ids.js';
import { LabelValue, NonNegativeInt } from './common.js';

export const HealthStatus = z.object({ status: z.literal('ok') });
export type HealthStatus = z.infer<typeof HealthStatus>;

/** `GET /v1/ready` when the instance can take traffic (its database answers, its migrations are applied). */
export const ReadyStatus = z.object({ status: z.literal('ready') });
export type ReadyStatus = z.infer<typeof ReadyStatus>;

export const ServerIdentity = z.object({ server_hotkey: Ed25519PublicKeyHex });
export type ServerIdentity = z.infer<typeof ServerIdentity>;

const ByTrack = z.object({
  skills: NonNegativeInt,
  mcp_servers: NonNegativeInt,
  packages: NonNegativeInt,
  repositories: NonNegativeInt,
});

export const VerdictCounts = z.object({ ALLOW: NonNegativeInt, WARN: NonNegativeInt, BLOCK: NonNegativeInt });
export const SeverityCounts = z.object({
  CRIT: NonNegativeInt,
  HIGH: NonNegativeInt,
  MED: NonNegativeInt,
  LOW: NonNegativeInt,
});

export const NetworkDashboard = z.object({
  last_update: OffsetTimestamp,
  validators: z.object({ active: NonNegativeInt, total: NonNegativeInt }),
  miners: z.object({ total: NonNegativeInt }),
  agents: z.object({ total: NonNegativeInt, by_track: ByTrack }),
  attestations: NonNegativeInt,
  tasks_24h: NonNegativeInt,
  reruns_24h: NonNegativeInt,
  /** 24 hourly buckets of attestations, oldest first. */
  throughput: z.array(NonNegativeInt).length(24),
  verdicts: VerdictCounts,
  track_mix: z.array(LabelValue),
});
export type NetworkDashboard = z.infer<typeof NetworkDashboard>;

export const TrendsDay = z.object({
  day: DayString,
  scanned: NonNegativeInt,
  flagged: NonNegativeInt,
  blocked: NonNegativeInt,
  warned: NonNegativeInt,
});
export type TrendsDay = z.infer<typeof TrendsDay>;

export const ThreatTrends = z.object({
  last_update: OffsetTimestamp,
  days: z.int().min(1).max(180),
  attestations: NonNegativeInt,
  scanned: NonNegativeInt,
  series: z.array(TrendsDay),
  week: z.object({ findings: NonNegativeInt, prev_findings: NonNegativeInt }),
  totals: z.object({ blocked: NonNegativeInt, warned: NonNegativeInt, flagged_artifacts: NonNegativeInt }),
  severity: SeverityCounts,
  categories: z.array(z.object({ category: z.string(), count: NonNegativeInt })),
  by_plane: z.array(LabelValue),
  by_track: z.array(LabelValue),
});
export type ThreatTrends = z.infer<typeof ThreatTrends>;

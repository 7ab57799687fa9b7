import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { readAgentEligibility, readAgents, readLeaderboard } from './agents-read.js';
import { readNetworkDashboard, readThreatTrends } from './network-stats-read.js';
import type { PublicReadService } from './public-read.js';
import {
  readClosedRounds,
  readRoundAttestations,
  readRoundScores,
  readRoundsStatus,
} from './rounds-read.js';

/** The storage-side implementation of the public read endpoints (features/network/public-reads/public-read.ts). */
export function createPublicReadService(db: Kysely<Database>): PublicReadService {
  return {
    networkDashboard: (now) => readNetworkDashboard(db, now),
    threatTrends: (days, now) => readThreatTrends(db, days, now),
    roundsStatus: (now) => readRoundsStatus(db, now),
    closedRounds: (limit) => readClosedRounds(db, limit),
    roundScores: (roundId) => readRoundScores(db, roundId),
    roundAttestations: (roundId, miner) => readRoundAttestations(db, roundId, miner),
    leaderboard: (now) => readLeaderboard(db, now),
    agents: (track) => readAgents(db, track),
    agentEligibility: (hotkey, track) => readAgentEligibility(db, hotkey, track),
  };
}

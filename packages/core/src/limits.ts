/** Limits of spec part 8. Configurable ones are the defaults. */
export const LIMITS = {
  globalRateLimitPerMinute: 300,
  endpointRateLimitPerMinute: 120,
  bodyLimitBytes: 64 * 1024 * 1024,
  handlerTimeoutMs: 60_000,
  signatureFreshnessSeconds: 120,
  webhookTimestampToleranceSeconds: 300,
  maxPageSize: 100,
  trendsDaysMin: 1,
  trendsDaysMax: 180,
  trendsDaysDefault: 30,
  roundsLimitMin: 1,
  roundsLimitMax: 200,
  roundsLimitDefault: 60,
  maxAgentsReturned: 500,
  maxTasksPerAttestationSet: 500,
  maxFindingsPerTask: 50,
  /** Not shown by the spec: findings a validator may put in one attestation (the round view still shows 50). */
  maxFindingsPerAttestation: 200,
  /** Not shown by the spec: the longest string field (type, category, title, file) of a finding. */
  maxFindingTextLength: 1024,
  roundIdMinLength: 8,
  roundIdMaxLength: 64,
  hotkeyMinLength: 47,
  hotkeyMaxLength: 48,
  /** Not shown by the spec: agents frozen into one round (the earliest-submitted current versions first). */
  maxAgentsPerRound: 256,
  /** Not shown by the spec: new agent versions one hotkey may submit on one track in any 24 hours. */
  maxAgentVersionsPerDay: 24,
} as const;

/** Server-side cache lifetimes of spec part 8, in seconds. */
export const CACHE_TTL_SECONDS = {
  dashboardNetwork: 60,
  threatTrends: 600,
  roundsStatus: 30,
  rounds: 30,
  leaderboard: 30,
  agents: 30,
  /** Not shown by the spec: Vigil caches closed-round attestations for 300 s (closed rounds never change). */
  roundAttestations: 300,
} as const;

/** The subnet whose validator permits Vigil honours. */
export const NETUID = 76;

/**
 * Realistic example bodies built from the field tables of spec part 2. Each factory returns a fresh
 * object so a test can break one field without affecting others.
 */

export const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const CHARLIE = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';
/** sha256 of the empty string. */
export const EMPTY_SHA256 = 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** sha256 of `{"a":1}`. */
export const A1_SHA256 = 'sha256:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862';
export const ROUND_ID = '3f9a1c0e7b2d4a58';

export const healthStatus = () => ({ status: 'ok' });

export const serverIdentity = () => ({
  server_hotkey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
});

export const networkDashboard = () => ({
  last_update: '2026-11-21T10:00:00.000+00:00',
  validators: { active: 12, total: 16 },
  miners: { total: 187 },
  agents: { total: 240, by_track: { skills: 80, mcp_servers: 70, packages: 60, repositories: 30 } },
  attestations: 1_204_332,
  tasks_24h: 18_220,
  reruns_24h: 4_105,
  throughput: [
    610, 598, 655, 700, 712, 690, 731, 802, 845, 812, 790, 777, 760, 740, 755, 768, 781, 799, 820, 834, 801, 770, 744,
    720,
  ],
  verdicts: { ALLOW: 15_102, WARN: 2_310, BLOCK: 808 },
  track_mix: [
    { label: 'skills', value: 6_100 },
    { label: 'mcp_servers', value: 5_200 },
    { label: 'packages', value: 4_900 },
    { label: 'repositories', value: 2_020 },
  ],
});

export const threatTrends = () => ({
  last_update: '2026-11-21T10:00:00.000+00:00',
  days: 30,
  attestations: 512_004,
  scanned: 98_120,
  series: [
    { day: '2026-11-20', scanned: 3_310, flagged: 140, blocked: 31, warned: 109 },
    { day: '2026-11-21', scanned: 1_280, flagged: 52, blocked: 12, warned: 40 },
  ],
  week: { findings: 911, prev_findings: 874 },
  totals: { blocked: 1_203, warned: 3_377, flagged_artifacts: 4_580 },
  severity: { CRIT: 41, HIGH: 388, MED: 1_920, LOW: 2_231 },
  categories: [
    { category: 'prompt_injection', count: 640 },
    { category: 'typosquat', count: 212 },
  ],
  by_plane: [
    { label: 'prompt', value: 700 },
    { label: 'install', value: 260 },
    { label: 'runtime', value: 3_620 },
  ],
  by_track: [
    { label: 'skills', value: 1_900 },
    { label: 'packages', value: 2_680 },
  ],
});

export const roundStatus = () => ({
  track: 'skills',
  round_id: ROUND_ID,
  round_number: 412,
  status: 'open',
  phase: 'evaluation',
  opened_at: '2026-11-21T06:00:00.000',
  closed_at: null,
  submission_closes_at: '2026-11-21T08:00:00.000',
  seconds_until_close: 5_400,
  accepting_submissions: false,
  participants: 44,
  scored_agents: 0,
});

export const roundsStatusResponse = () => ({
  tracks: [
    roundStatus(),
    {
      ...roundStatus(),
      track: 'packages',
      round_id: 'a0b1c2d3e4f5a6b7c8d9',
      status: 'closed',
      phase: 'complete',
      closed_at: '2026-11-21T09:30:00.000',
      seconds_until_close: null,
      scored_agents: 39,
    },
  ],
  server_time: '2026-11-21T10:00:00.000',
  next_round_opens_at: null,
  seconds_until_next_round: null,
});

export const scoreEntry = (rank = 1) => ({ rank, hotkey: ALICE, name: 'sentinel', score: 0.9412, validators: 9 });

export const roundSummary = () => ({
  round_id: ROUND_ID,
  round_number: 411,
  track: 'mcp_servers',
  status: 'closed',
  closed_at: '2026-11-20T18:00:00.000',
  miners: 51,
  winners: [1, 2, 3, 4, 5].map(scoreEntry),
});

export const roundsListResponse = () => ({ rounds: [roundSummary()], meta: { total: 411 } });

export const roundScores = () => ({
  round_id: ROUND_ID,
  round_number: 411,
  track: 'mcp_servers',
  closed_at: '2026-11-20T18:00:00.000',
  scores: [scoreEntry(1), { ...scoreEntry(2), hotkey: BOB, name: 'warden', score: 0.88 }],
});

export const finding = () => ({
  type: 'static',
  category: 'tool_poisoning',
  severity: 'HIGH',
  title: 'Tool description instructs the model to read ~/.ssh',
  file: 'server/tools.json',
});

export const attestationTask = () => ({
  artifact_ref: '',
  validator: '',
  verdict: 'BLOCK',
  risk_score: 87,
  canonical_hash: A1_SHA256,
  findings: [finding()],
});

export const roundAttestations = () => ({
  round_id: ROUND_ID,
  track: 'mcp_servers',
  round_status: 'closed',
  miner_hotkey: ALICE,
  score: 0.9412,
  runs: 9,
  failure_reason: null,
  policy_version: '2026.11.1',
  tasks: [attestationTask(), { ...attestationTask(), verdict: 'ALLOW', risk_score: 3, findings: [] }],
});

export const leaderboardRow = () => ({
  rank: 1,
  track: 'skills',
  hotkey: ALICE,
  name: 'sentinel',
  version: 3,
  score: 0.9412,
  attestations: 1_820,
  updated_at: '2026-11-21T09:30:00.000',
  resubmitted_since: false,
  current_version: 3,
});

export const leaderboard = () => ({
  rows: [
    leaderboardRow(),
    { ...leaderboardRow(), rank: 2, hotkey: BOB, name: 'warden', score: null, resubmitted_since: true, current_version: 5 },
  ],
  meta: { total_agents: 240, last_update: '2026-11-21T09:30:00.000' },
});

export const agent = () => ({
  hotkey: ALICE,
  track: 'skills',
  name: 'sentinel',
  version: 3,
  status: 'active',
  agent_hash: A1_SHA256,
  provider: 'anthropic',
  evaluated: true,
  evaluation_state: null,
  runs: 9,
  score: 0.9412,
  validator_scores: [{ validator: CHARLIE, score: 0.95, round_number: 411 }],
  rounds: [409, 410, 411],
  updated_at: '2026-11-21T09:30:00.000',
});

export const agentsResponse = () => ({ agents: [agent(), { ...agent(), hotkey: BOB, track: 'packages' }] });

export const agentEligibility = () => ({
  hotkey: ALICE,
  track: 'skills',
  name: 'sentinel',
  status: 'active',
  agent_hash: A1_SHA256,
  version: 3,
  qualifies_next_round: true,
  state: 'winner',
  reason: 'placed in the top five of the previous round',
  last_round_hash: A1_SHA256,
  score: 0.9412,
  rounds: [410, 411],
});

export const policyEvaluationRequest = () => ({
  artifact: 'pkg:npm/lodash@4.17.21',
  policy: 'default',
  include: ['vulnerabilities', 'licenses', 'provenance'],
});

export const policyEvaluation = () => ({
  id: 'eval_01JD3XK5R7Q2',
  artifact: 'pkg:npm/lodash@4.17.21',
  policy: 'default',
  verdict: 'allow',
  score: 12,
  risk: 'low',
  details: { passed: ['no_known_malware', 'license_allowed'], failed: [], warnings: ['provenance_missing'] },
  evaluated_at: '2026-11-21T10:00:00.000+00:00',
  purl: 'pkg:npm/lodash@4.17.21',
  state: 'decided',
  applied_policy: { id: 'pol_default', name: 'default', version: 1, builtin: true },
  checks: [
    { name: 'no_known_malware', action: 'block', outcome: 'passed', error: null },
    { name: 'license_allowed', action: 'block', outcome: 'passed', error: null },
    { name: 'provenance_missing', action: 'warn', outcome: 'failed', error: null },
  ],
});

export const policyCreateRequest = () => ({
  name: 'strict',
  description: 'Blocks what Vigil blocks and critical advisories',
  rules: [
    { name: 'vigil-block', expression: 'artifact.verdict != "BLOCK"', action: 'block' },
    { name: 'no-critical', expression: '!vulnerabilities.exists(v, v.severity == "critical")', action: 'warn', description: 'critical advisories' },
  ],
});

export const webhook = () => ({
  id: 'wh_9f8e7d6c5b4a',
  url: 'https://hooks.example.com/vigil',
  events: ['verdict.changed', 'attestation.created'],
  active: true,
  created_at: '2026-11-21T10:00:00.000+00:00',
  updated_at: '2026-11-21T10:00:00.000+00:00',
  disabled_reason: null,
  disabled_at: null,
  secret_rotation: null,
});

export const webhookCreateRequest = () => ({
  url: 'https://hooks.example.com/vigil',
  events: ['verdict.changed', 'repository.verified'],
});

export const webhookCreated = () => ({
  data: { ...webhook(), secret: 'whsec_4f3a9c2b7e1d8a6f5c0b9e2d7a4f1c8b' },
});

export const repositoryRegistrationRequest = () => ({
  url: 'https://github.com/example/widgets.git',
  provider: 'github',
  policy: 'strict',
});

export const repository = () => ({
  id: 'repo_7c1d2e3f4a5b6c7d',
  url: 'https://github.com/example/widgets.git',
  provider: 'github',
  policy: 'strict',
  continuous: true,
  verdict: null,
  last_verified_at: null,
  last_verification: null,
  last_push: null,
  created_at: '2026-11-21T10:00:00.000+00:00',
});

export const repositoryPush = () => ({
  delivery: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
  ref: 'refs/heads/main',
  commit: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
  state: 'retrying',
  attempts: 1,
  last_error: 'GitHub GET /repos/example/widgets/git/trees/0d1a…: 502 Bad Gateway',
  next_attempt_at: '2026-11-21T10:01:00.000+00:00',
  received_at: '2026-11-21T10:00:30.000+00:00',
});

export const repositoryVerificationBrief = () => ({
  id: 'rver_12',
  verdict: 'WARN',
  previous_verdict: 'ALLOW',
  ref: 'refs/heads/main',
  commit: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
  policy: 'strict',
  packages: 1480,
  pending: 12,
  verified_at: '2026-11-21T10:01:02.000+00:00',
});

export const attestationPayload = () => ({
  round_id: ROUND_ID,
  task_id: 'task_000123',
  track: 'packages',
  miner_hotkey: ALICE,
  agent_hash: A1_SHA256,
  artifact: { bundle_hash: 'packages/lodash-4.17.21/npm/lodash', sha256: EMPTY_SHA256 },
  verdict: 'WARN',
  risk_score: 41,
  findings: [{ ...finding(), category: 'install_script', severity: 'MED', file: 'package.json' }],
  policy_version: '2026.11.1',
  validator_hotkey: CHARLIE,
  created_at: '2026-11-21T10:00:00.000+00:00',
});

export const attestationEnvelope = () => ({
  payload: attestationPayload(),
  canonical_hash: A1_SHA256,
  signature: 'ab'.repeat(64),
});

export const metagraphSnapshot = () => ({
  netuid: 76,
  block: 4_512_001,
  taken_at: '2026-11-21T10:00:00.000+00:00',
  neurons: [
    { uid: 0, hotkey: CHARLIE, validator_permit: true },
    { uid: 1, hotkey: ALICE, validator_permit: false },
  ],
});

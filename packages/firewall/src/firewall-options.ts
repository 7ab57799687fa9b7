import { PolicyName } from '@vigil/core';

/**
 * The firewall's settings (docs/firewall.md "Settings"). Every one is checked when the firewall is
 * made, so a bad value fails at start, never on the first install.
 */
export const FIREWALL_MODES = ['fail-open', 'fail-closed', 'wait'] as const;
export type FirewallMode = (typeof FIREWALL_MODES)[number];

export const WARN_ACTIONS = ['allow', 'block'] as const;
export type WarnAction = (typeof WARN_ACTIONS)[number];

export interface FirewallOptions {
  /** The npm registry the firewall stands in front of: `http(s)://host[:port][/path]`. */
  npmUpstream: string;
  /**
   * npm registries for scopes: `{ '@corp': 'https://npm.corp.example' }` reads (and downloads)
   * every `@corp/*` package from that registry, every other package from `npmUpstream`.
   */
  npmScopes?: Record<string, string>;
  /**
   * The PyPI simple indexes (PEP 503/691) the firewall also stands in front of, under `/pypi/simple/`:
   * `https://pypi.org/simple`, or several in order: a project's page comes from the first index
   * that has the project (answers other than 404). Default: none (no PyPI side).
   */
  pypiUpstream?: string | string[];
  /** Vigil's API base URL. */
  vigilUrl: string;
  /**
   * The API key whose account's answers decide (a `verify`-scoped key of a paid plan). With
   * `callerKeys`, the key of callers that send none (none: such callers are refused with 401).
   */
  apiKey?: string;
  /**
   * Each caller authenticates with its own Vigil API key (Bearer token, or the password of Basic
   * auth) and its downloads are decided by its account's verdicts and policy (docs/firewall.md
   * "Per-caller keys"). The caller's `Authorization` is then never passed to an upstream.
   */
  callerKeys?: boolean;
  /** Report each decision to `POST /v1/firewall/decisions` with the key that decided it (the account's Firewall page). Default false. */
  reportDecisions?: boolean;
  /**
   * A policy of the key's organization (docs/policies.md) that decides each download through
   * `POST /v1/policies/evaluate` (the key needs the `policies` scope). Default: none, Vigil's
   * published verdict decides. Packuments are filtered by the published verdict either way.
   */
  policy?: string;
  /** What an undecided version (no verdict yet), or any version while Vigil cannot be asked, gets. Default `fail-closed`. */
  mode?: FirewallMode;
  /** `wait` only: how long a tarball request waits for a verdict before it is refused. Default 30. */
  waitSeconds?: number;
  /** What a version whose verdict is WARN gets. Default `allow`. */
  warn?: WarnAction;
  /** Hide versions published less than this many hours ago (from the packument's `time`). Default 0: off. */
  cooldownHours?: number;
  /** How long a decided answer is reused, in seconds. Default 30. */
  cacheSeconds?: number;
  /** How long an undecided answer is reused, in seconds. Default 2: a verdict is published in seconds between rounds. */
  pendingCacheSeconds?: number;
  /** Where the 403 body's link points: the dashboard's base URL. Default: `vigilUrl` (the server serves the dashboard). */
  dashboardUrl?: string;
  /** Milliseconds the upstream has to start answering (and, once answering, may stay silent). Default 30000. */
  upstreamTimeoutMs?: number;
  /** Milliseconds per call to Vigil. Default 10000. */
  vigilTimeoutMs?: number;
  /** Receives each decision, one object per line of the decision log. */
  onDecision?: (entry: DecisionLogEntry) => void;
  /** Told when a batch of decision reports could not be delivered (`reportDecisions`). */
  onReportDropped?: (why: string, count: number) => void;
  /** The clock (milliseconds), for the cooldown and the log's time. */
  now?: () => number;
}

/** One line of the decision log (docs/firewall.md "Decision log"). */
export interface DecisionLogEntry {
  time: string;
  client: string;
  ecosystem: 'npm' | 'pypi';
  package: string;
  version: string | null;
  decision: 'allow' | 'block' | 'filter';
  reason: string;
  verdict: 'ALLOW' | 'WARN' | 'BLOCK' | null;
  policy: string;
  mode: FirewallMode;
  request_id: string;
  hidden?: { version: string; reason: string }[];
  /** `callerKeys` only: the account of the key that decided (`acc_…`), or `anonymous` (the default key). */
  caller?: string;
}

export interface ResolvedOptions {
  npmUpstream: URL;
  /** Scope (`@corp`) → its registry. */
  npmScopes: Map<string, URL>;
  /** In order; empty: no PyPI side. */
  pypiUpstreams: URL[];
  vigilUrl: string;
  apiKey: string | null;
  callerKeys: boolean;
  reportDecisions: boolean;
  onReportDropped: (why: string, count: number) => void;
  policy: string | null;
  mode: FirewallMode;
  waitSeconds: number;
  warn: WarnAction;
  cooldownHours: number;
  cacheSeconds: number;
  pendingCacheSeconds: number;
  dashboardUrl: string;
  upstreamTimeoutMs: number;
  vigilTimeoutMs: number;
  onDecision: (entry: DecisionLogEntry) => void;
  now: () => number;
}

function httpUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${name}: not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${name}: must be an http or https URL, got ${JSON.stringify(value)}`);
  if (url.search || url.hash) throw new TypeError(`${name}: must have no query or fragment, got ${JSON.stringify(value)}`);
  return url;
}

function number(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw new TypeError(`${name}: expected a number from ${min} to ${max}, got ${String(value)}`);
  return value;
}

function policyName(value: string | undefined): string | null {
  if (value === undefined) return null;
  // The server's rule for a policy name (`PolicyName` of @vigil/core): a bad one fails at start, not on every download.
  const parsed = PolicyName.safeParse(value);
  if (!parsed.success) throw new TypeError(`policy: expected a policy name of letters, digits, ".", "_" or "-" (1 to 100 characters), got ${JSON.stringify(value)}`);
  return parsed.data;
}

export function resolveOptions(options: FirewallOptions): ResolvedOptions {
  const upstream = httpUrl('npmUpstream', options.npmUpstream);
  // The upstream is a base: `/name` is appended to its path.
  if (!upstream.pathname.endsWith('/')) upstream.pathname += '/';
  const pypiList = options.pypiUpstream === undefined ? [] : Array.isArray(options.pypiUpstream) ? options.pypiUpstream : [options.pypiUpstream];
  const pypi = pypiList.map((value, i) => {
    const url = httpUrl(pypiList.length > 1 ? `pypiUpstream[${i}]` : 'pypiUpstream', value);
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    return url;
  });
  const scopes = new Map<string, URL>();
  for (const [scope, value] of Object.entries(options.npmScopes ?? {})) {
    if (!/^@[a-z0-9~-][a-z0-9._~-]*$/i.test(scope)) throw new TypeError(`npmScopes: expected a scope such as @corp, got ${JSON.stringify(scope)}`);
    const url = httpUrl(`npmScopes[${scope}]`, value);
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    scopes.set(scope.toLowerCase(), url);
  }
  const vigil = httpUrl('vigilUrl', options.vigilUrl);
  const callerKeys = options.callerKeys === true;
  if (options.apiKey !== undefined && (typeof options.apiKey !== 'string' || options.apiKey === '')) throw new TypeError('apiKey: expected a vgl_… token of a paid plan with the verify scope');
  if (options.apiKey === undefined && !callerKeys) throw new TypeError('apiKey: required (a vgl_… token of a paid plan with the verify scope) unless callerKeys is set');
  const mode = options.mode ?? 'fail-closed';
  if (!FIREWALL_MODES.includes(mode)) throw new TypeError(`mode: expected one of ${FIREWALL_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  const warn = options.warn ?? 'allow';
  if (!WARN_ACTIONS.includes(warn)) throw new TypeError(`warn: expected allow or block, got ${JSON.stringify(warn)}`);
  const dashboard = options.dashboardUrl === undefined ? vigil : httpUrl('dashboardUrl', options.dashboardUrl);
  return {
    npmUpstream: upstream,
    npmScopes: scopes,
    pypiUpstreams: pypi,
    vigilUrl: vigil.href.replace(/\/$/, ''),
    apiKey: options.apiKey ?? null,
    callerKeys,
    reportDecisions: options.reportDecisions === true,
    onReportDropped: options.onReportDropped ?? (() => {}),
    policy: policyName(options.policy),
    mode,
    waitSeconds: number('waitSeconds', options.waitSeconds, 30, 0, 3600),
    warn,
    cooldownHours: number('cooldownHours', options.cooldownHours, 0, 0, 24 * 365),
    cacheSeconds: number('cacheSeconds', options.cacheSeconds, 30, 0, 3600),
    pendingCacheSeconds: number('pendingCacheSeconds', options.pendingCacheSeconds, 2, 0, 3600),
    dashboardUrl: dashboard.href.replace(/\/$/, ''),
    upstreamTimeoutMs: number('upstreamTimeoutMs', options.upstreamTimeoutMs, 30_000, 1, 600_000),
    vigilTimeoutMs: number('vigilTimeoutMs', options.vigilTimeoutMs, 10_000, 1, 600_000),
    onDecision: options.onDecision ?? (() => {}),
    now: options.now ?? Date.now,
  };
}

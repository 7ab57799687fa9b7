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
  /** A PyPI simple index (PEP 503/691) the firewall also stands in front of, under `/pypi/simple/`: `https://pypi.org/simple`. Default: none (no PyPI side). */
  pypiUpstream?: string;
  /** Vigil's API base URL. */
  vigilUrl: string;
  /** The API key whose account's answers decide (a `verify`-scoped key of a paid plan). */
  apiKey: string;
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
}

export interface ResolvedOptions {
  npmUpstream: URL;
  pypiUpstream: URL | null;
  vigilUrl: string;
  apiKey: string;
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
  const pypi = options.pypiUpstream === undefined ? null : httpUrl('pypiUpstream', options.pypiUpstream);
  if (pypi && !pypi.pathname.endsWith('/')) pypi.pathname += '/';
  const vigil = httpUrl('vigilUrl', options.vigilUrl);
  if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new TypeError('apiKey: required (a vgl_… token of a paid plan with the verify scope)');
  const mode = options.mode ?? 'fail-closed';
  if (!FIREWALL_MODES.includes(mode)) throw new TypeError(`mode: expected one of ${FIREWALL_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  const warn = options.warn ?? 'allow';
  if (!WARN_ACTIONS.includes(warn)) throw new TypeError(`warn: expected allow or block, got ${JSON.stringify(warn)}`);
  const dashboard = options.dashboardUrl === undefined ? vigil : httpUrl('dashboardUrl', options.dashboardUrl);
  return {
    npmUpstream: upstream,
    pypiUpstream: pypi,
    vigilUrl: vigil.href.replace(/\/$/, ''),
    apiKey: options.apiKey,
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

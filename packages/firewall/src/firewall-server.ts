import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockBody } from './block-body.js';
import { callerKey, KeyChecker } from './caller-key.js';
import { DecisionReporter } from './decision-reporter.js';
import { decide, decideByPolicy, policyUndecided, type Decision } from './decide.js';
import { PolicySource } from './policy-source.js';
import { resolveOptions, type DecisionLogEntry, type FirewallOptions, type ResolvedOptions } from './firewall-options.js';
import { canonicalPurl, npmReference, packumentPath, pathSegments, readNpmPath } from './npm-paths.js';
import { filterPackument, type VersionJudgement } from './packument-filter.js';
import { normalizePypiName, pypiFileVersion, pypiReference, readSimplePage, simpleHtml, simpleJson, type SimplePage } from './pypi-simple.js';
import { UpstreamError, upstreamRequest } from './upstream.js';
import { VerdictSource, VigilUnavailable, type Lookup } from './verdict-source.js';

/** A running firewall. */
export interface Firewall {
  /** `http://host:port`, what a package manager's registry setting points at. */
  readonly url: string;
  readonly port: number;
  /** Calls made to Vigil's batch endpoint so far (each answers up to 100 versions). */
  vigilCalls(): number;
  /** Stops listening and ends every open connection. */
  close(): Promise<void>;
}

/** Packuments larger than this are refused (502): npm's largest are tens of MiB. */
const MAX_PACKUMENT_BYTES = 256 * 1024 * 1024;
/** `wait` asks Vigil again this often. */
const WAIT_POLL_MS = 1_000;
/** Headers of the client's request that reach the upstream (the client's token included: a private upstream needs it). */
const FORWARDED = ['accept', 'authorization', 'user-agent', 'npm-command', 'npm-session', 'npm-auth-type', 'pnpm-version', 'referer', 'if-none-match', 'if-modified-since', 'content-type', 'content-length'];
/** Headers of the upstream's answer that reach the client for a tarball or a passed-through request. */
const RETURNED = ['content-type', 'content-length', 'content-encoding', 'etag', 'last-modified', 'cache-control', 'www-authenticate', 'location', 'npm-notice'];


function pick(headers: IncomingMessage['headers'], names: string[]): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name of names) if (headers[name] !== undefined) out[name] = headers[name];
  return out;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

function abortable(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** What decides for one key: its verdicts, its policy's evaluations, where its decisions are reported. */
interface Sources {
  verdicts: VerdictSource;
  policies: PolicySource | null;
  reporter: DecisionReporter | null;
  /** `callerKeys`: the key's account, or `anonymous`. */
  caller: string | undefined;
}

type Ctx = { requestId: string; client: string; signal: AbortSignal; sources: Sources };

/** Callers' keys whose sources (caches) are kept at once; the least recently added goes first. */
const MAX_CALLERS = 1_000;

/** The 401 for an `Authorization` header that carries no key the firewall can read (docs/firewall.md "Per-caller keys"). */
const UNREADABLE = 'an Authorization header the firewall cannot read (expected Bearer <key>, or Basic with the key as the password or the user name)';

class FirewallHandler {
  /** The key of callers without one (or of everyone without `callerKeys`); null: such callers are refused. */
  private readonly anonymous: Sources | null;
  private readonly callers = new Map<string, Sources>();
  private readonly keys: KeyChecker | null;
  /** Batch calls of the sources of callers no longer kept. */
  private retiredCalls = 0;

  constructor(readonly o: ResolvedOptions) {
    this.anonymous = o.apiKey === null ? null : this.sources(o.apiKey, o.callerKeys ? 'anonymous' : undefined);
    this.keys = o.callerKeys ? new KeyChecker(o.vigilUrl, o.vigilTimeoutMs, o.cacheSeconds * 1000, o.policy !== null, o.now) : null;
  }

  private sources(apiKey: string, caller: string | undefined): Sources {
    const connection = { vigilUrl: this.o.vigilUrl, apiKey, timeoutMs: this.o.vigilTimeoutMs };
    const o = this.o;
    return {
      verdicts: new VerdictSource(connection, o.cacheSeconds * 1000, o.now, o.pendingCacheSeconds * 1000),
      policies: o.policy === null ? null : new PolicySource(connection, o.policy, o.cacheSeconds * 1000, o.pendingCacheSeconds * 1000, o.now),
      reporter: o.reportDecisions ? new DecisionReporter(connection, o.onReportDropped) : null,
      caller,
    };
  }

  /** Calls made to Vigil's batch endpoint, by every key. */
  calls(): number {
    let n = this.retiredCalls + (this.anonymous?.verdicts.calls ?? 0);
    for (const s of this.callers.values()) n += s.verdicts.calls;
    return n;
  }

  /** Reports still queued, sent (the firewall closing). */
  async flush(): Promise<void> {
    await Promise.all([this.anonymous, ...this.callers.values()].map((s) => s?.reporter?.close()));
  }

  /**
   * Whose key decides this request (docs/firewall.md "Per-caller keys"); null once it has been
   * answered 401, 403 or 503 because the caller's key cannot decide.
   */
  private async authenticate(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<Sources | null> {
    if (this.keys === null) return this.anonymous!;
    const credential = callerKey(req.headers.authorization);
    // The caller's Vigil key is never passed on to an upstream registry.
    delete req.headers.authorization;
    // No WWW-Authenticate on a 401: npm would print its own "Incorrect or missing password" for it
    // instead of this body's `error`.
    const refuse = (status: 401 | 403 | 503, why: string) => {
      sendJson(res, status, { error: `Vigil firewall: ${why} (request ${requestId})` });
      return null;
    };
    if (credential.kind === 'none') {
      if (this.anonymous) return this.anonymous;
      return refuse(401, 'this firewall needs your Vigil API key (npm, pnpm, Yarn: a registry token; pip, uv: the password of the index URL)');
    }
    if (credential.kind === 'unreadable') return refuse(401, UNREADABLE);
    const key = credential.key;
    const check = await this.keys.check(key);
    if (!check.ok) return refuse(check.status, check.why);
    let sources = this.callers.get(key);
    if (sources === undefined) {
      sources = this.sources(key, check.accountId);
      this.callers.set(key, sources);
      if (this.callers.size > MAX_CALLERS) {
        const [oldest, retired] = this.callers.entries().next().value as [string, Sources];
        this.callers.delete(oldest);
        this.retiredCalls += retired.verdicts.calls;
        void retired.reporter?.close();
      }
    }
    return sources;
  }

  private log(ctx: Ctx, entry: Omit<DecisionLogEntry, 'time' | 'ecosystem' | 'policy' | 'mode'>, ecosystem: DecisionLogEntry['ecosystem'] = 'npm'): void {
    const line = { time: new Date(this.o.now()).toISOString(), ecosystem, policy: this.o.policy ?? 'vigil-verdict', mode: this.o.mode, ...entry } as DecisionLogEntry;
    if (ctx.sources.caller !== undefined) line.caller = ctx.sources.caller;
    this.o.onDecision(line);
    ctx.sources.reporter?.add(line);
  }

  /** Upstream simple pages read for downloads, by project: a file's upstream URL is looked up here, never taken from the client. */
  private readonly pages = new Map<string, { page: SimplePage; until: number }>();

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `fw_${randomBytes(12).toString('base64url')}`;
    res.setHeader('x-request-id', requestId);
    // The client going away (Ctrl-C, a timeout of its own) aborts what is under way for it upstream.
    const aborted = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    const client = req.socket.remoteAddress ?? 'unknown';
    // Read by hand, not with `new URL`: `//host/…` would be taken for a host, and `..` resolved before the decision sees it.
    const raw = (req.url ?? '/').replace(/#.*$/, '');
    const query = raw.indexOf('?');
    const url = {
      pathname: raw.startsWith('/') ? (query < 0 ? raw : raw.slice(0, query)) : new URL(raw, 'http://firewall.invalid').pathname,
      search: query < 0 ? '' : raw.slice(query),
    };
    const target = readNpmPath(url.pathname);
    const read = req.method === 'GET' || req.method === 'HEAD';
    try {
      const sources = await this.authenticate(req, res, requestId);
      if (sources === null) return;
      const ctx: Ctx = { requestId, client, signal: aborted.signal, sources };
      const segments = pathSegments(url.pathname);
      // Normalised like the npm side (duplicate and trailing slashes, escapes), so no spelling of a file path escapes the decision.
      if (this.o.pypiUpstreams.length > 0 && segments?.[0] === 'pypi') {
        if (read && segments.length === 3 && segments[1] === 'simple') await this.simplePage(req, res, normalizePypiName(segments[2]!), ctx);
        else if (read && segments.length === 4 && segments[1] === 'files') await this.pypiFile(req, res, normalizePypiName(segments[2]!), segments[3]!, ctx);
        else sendJson(res, 404, { error: `Vigil firewall: not a simple page or file path: ${url.pathname} (request ${requestId})` });
      } else if (read && target.kind === 'packument') await this.packument(req, res, target.name, ctx);
      else if (read && target.kind === 'tarball') await this.tarball(req, res, target, ctx);
      else if (target.kind === 'api') await this.passThrough(req, res, target.path, url.search, aborted.signal);
      else {
        // Never passed on: a lenient upstream may serve a tarball for a path the firewall does not decide.
        const why = target.kind === 'refused' ? target.why : `${req.method} of a package path (only GET and HEAD are served)`;
        sendJson(res, 404, { error: `Vigil firewall: not passed through: ${req.method} ${url.pathname} is ${why} (request ${requestId})` });
      }
    } catch (error) {
      if (aborted.signal.aborted) return;
      if (error instanceof UpstreamError) sendJson(res, error.status, { error: `Vigil firewall: ${error.message} (request ${requestId})` });
      else sendJson(res, 500, { error: `Vigil firewall: internal error: ${(error as Error).message} (request ${requestId})` });
    }
  }

  /** The registry of a package: its scope's (`npmScopes`), else `npmUpstream`. */
  private upstreamOf(name: string): URL {
    if (!name.startsWith('@')) return this.o.npmUpstream;
    return this.o.npmScopes.get(name.slice(0, name.indexOf('/')).toLowerCase()) ?? this.o.npmUpstream;
  }

  private upstreamUrl(path: string, search = '', base: URL = this.o.npmUpstream): URL {
    const url = new URL(base.href);
    url.pathname = `${url.pathname.replace(/\/$/, '')}${path}`;
    url.search = search;
    return url;
  }

  private async packument(req: IncomingMessage, res: ServerResponse, name: string, ctx: Ctx): Promise<void> {
    const headers = pick(req.headers, ['accept', 'authorization', 'user-agent', 'npm-command', 'npm-session']);
    // The cooldown reads `time`, which only the full document has.
    if (this.o.cooldownHours > 0 || headers.accept === undefined) headers.accept = 'application/json';
    headers['accept-encoding'] = 'identity';
    const answer = await upstreamRequest(this.upstreamUrl(packumentPath(name), '', this.upstreamOf(name)), { method: 'GET', headers, timeoutMs: this.o.upstreamTimeoutMs, signal: ctx.signal });
    if (answer.statusCode !== 200) {
      res.writeHead(answer.statusCode ?? 502, pick(answer.headers, RETURNED));
      answer.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_PACKUMENT_BYTES) throw new UpstreamError(502, `the upstream packument of ${name} is larger than ${MAX_PACKUMENT_BYTES} bytes`);
      chunks.push(chunk);
    }
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not an object');
    } catch {
      throw new UpstreamError(502, `the upstream answered the packument of ${name} with something that is not a JSON object`);
    }
    const versions = doc.versions && typeof doc.versions === 'object' ? Object.keys(doc.versions) : [];
    // Every version in one go: the source batches them (100 a call) and reuses what it knows.
    const lookups = new Map<string, Lookup>();
    const answers = await ctx.sources.verdicts.lookup(versions.map((v) => npmReference(name, v)));
    versions.forEach((v, i) => lookups.set(v, answers[i]!));
    const time = doc.time && typeof doc.time === 'object' ? (doc.time as Record<string, unknown>) : {};
    const cutoff = this.o.now() - this.o.cooldownHours * 3_600_000;
    const judge = (version: string): VersionJudgement => {
      const lookup = lookups.get(version);
      if (lookup && !(lookup instanceof VigilUnavailable) && lookup.state === 'decided') {
        if (lookup.verdict === 'BLOCK') return { hide: true, reason: 'verdict BLOCK' };
        if (lookup.verdict === 'WARN' && this.o.warn === 'block') return { hide: true, reason: 'verdict WARN (warn: block)' };
      }
      if (this.o.cooldownHours > 0 && typeof time[version] === 'string') {
        const published = Date.parse(time[version]);
        if (Number.isFinite(published) && published > cutoff) return { hide: true, reason: `cooldown: published ${time[version]}, less than ${this.o.cooldownHours} h ago` };
      }
      return { hide: false };
    };
    const host = req.headers.host ?? `127.0.0.1:${(req.socket.address() as AddressInfo).port}`;
    const { hidden } = filterPackument(doc, judge, `http://${host}`);
    if (hidden.length > 0 && hidden.length < versions.length) this.log(ctx, { client: ctx.client, package: name, version: null, decision: 'filter', reason: `${hidden.length} of ${versions.length} versions hidden`, verdict: null, request_id: ctx.requestId, hidden });
    if (hidden.length > 0 && hidden.length === versions.length) {
      // Nothing left to offer: say why, in the package manager's words, rather than "no matching version".
      const newest = hidden.at(-1)!;
      const lookup = lookups.get(newest.version);
      const reasons = [...new Set(hidden.map((h) => h.reason.replace(/^cooldown: .*/, `cooldown ${this.o.cooldownHours} h`)))].join(', ');
      const reason = `every version is hidden (${reasons})`;
      const verdict = lookup && !(lookup instanceof VigilUnavailable) ? lookup : null;
      // One line per decision: the refusal (with what was hidden), never also a `filter` line.
      this.log(ctx, { client: ctx.client, package: name, version: null, decision: 'block', reason, verdict: verdict?.verdict ?? null, request_id: ctx.requestId, hidden });
      sendJson(res, 403, blockBody({ name, version: null, purl: verdict?.purl ?? canonicalPurl(`pkg:npm/${name.replace(/^@/, '%40')}`), reason, verdict, dashboardUrl: this.o.dashboardUrl, requestId: ctx.requestId }));
      return;
    }
    const text = JSON.stringify(doc);
    res.writeHead(200, {
      'content-type': answer.headers['content-type'] ?? 'application/json',
      'content-length': Buffer.byteLength(text),
      // The document depends on verdicts that change: never reused without asking again.
      'cache-control': 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : text);
  }

  /**
   * Asks Vigil about one version, and with mode `wait` keeps asking (fresh, every second) while it is
   * undecided, bounded by the wall clock: an ask still unanswered at `waitSeconds` (Vigil hanging,
   * its own timeout and retry not yet spent) is abandoned, and the reason says how long it waited.
   */
  private async decision(reference: string, sources: Sources, signal: AbortSignal): Promise<Decision> {
    if (sources.policies) {
      const policies = sources.policies;
      return this.waitFor(
        (fresh) => policies.evaluate(reference, fresh),
        policyUndecided,
        (answer, waited) => decideByPolicy(answer, policies.policy, this.o, waited),
        signal,
      );
    }
    return this.waitFor(
      async (fresh) => (await sources.verdicts.lookup([reference], fresh))[0]!,
      (l: Lookup) => l instanceof VigilUnavailable || l.state === 'pending',
      (lookup, waited) => decide(lookup, this.o, waited),
      signal,
    );
  }

  private async waitFor<T>(ask: (fresh: boolean) => Promise<T>, undecided: (answer: T) => boolean, judge: (answer: T | VigilUnavailable, waitedSeconds: number | null) => Decision, signal: AbortSignal): Promise<Decision> {
    if (this.o.mode !== 'wait' || this.o.waitSeconds === 0) {
      const answer = await ask(false);
      return judge(answer, this.o.mode === 'wait' && undecided(answer) ? 0 : null);
    }
    const started = Date.now();
    const deadline = started + this.o.waitSeconds * 1000;
    const cutOff = Symbol('cut off');
    /** `promise`, or `cutOff` once the deadline (or the client going away) comes first. */
    const bounded = (promise: Promise<T>): Promise<T | typeof cutOff> =>
      Promise.race([promise, abortable(Math.max(0, deadline - Date.now()), signal).then((): typeof cutOff => cutOff)]);
    let answer: T | VigilUnavailable;
    const first = await bounded(ask(false));
    answer = first === cutOff ? new VigilUnavailable(`no answer within ${this.o.waitSeconds} s`) : first;
    if (first !== cutOff && !undecided(first)) return judge(first, null);
    while (Date.now() < deadline && !signal.aborted) {
      await abortable(Math.min(WAIT_POLL_MS, Math.max(0, deadline - Date.now())), signal);
      if (signal.aborted || Date.now() >= deadline) break;
      const next = await bounded(ask(true));
      // An ask cut off by the deadline keeps the last answer (a pending verdict says more than a timeout).
      if (next === cutOff) break;
      answer = next;
      if (!undecided(next)) return judge(next, null);
    }
    return judge(answer, Math.round((Date.now() - started) / 1000));
  }

  private async tarball(req: IncomingMessage, res: ServerResponse, target: { name: string; version: string; file: string }, ctx: Ctx): Promise<void> {
    const reference = npmReference(target.name, target.version);
    const decision = await this.decision(reference, ctx.sources, ctx.signal);
    if (ctx.signal.aborted) return;
    const verdict = decision.verdict;
    this.log(ctx, { client: ctx.client, package: target.name, version: target.version, decision: decision.allow ? 'allow' : 'block', reason: decision.reason, verdict: verdict?.state === 'decided' ? verdict.verdict : null, request_id: ctx.requestId });
    if (!decision.allow) {
      sendJson(res, 403, blockBody({ name: target.name, version: target.version, purl: verdict?.purl ?? canonicalPurl(reference), reason: decision.reason, verdict, dashboardUrl: this.o.dashboardUrl, requestId: ctx.requestId }));
      return;
    }
    const answer = await upstreamRequest(this.upstreamUrl(`/${target.name}/-/${encodeURIComponent(target.file)}`, '', this.upstreamOf(target.name)), {
      method: req.method!,
      headers: { ...pick(req.headers, ['authorization', 'user-agent', 'if-none-match']), 'accept-encoding': 'identity' },
      timeoutMs: this.o.upstreamTimeoutMs,
      signal: ctx.signal,
    });
    res.writeHead(answer.statusCode ?? 502, pick(answer.headers, RETURNED));
    // Byte for byte: the package manager checks dist.integrity against exactly these bytes.
    answer.pipe(res);
    answer.once('error', () => res.destroy());
  }

  /** The upstream's simple page of `project` (JSON when the upstream speaks PEP 691), or the upstream's answer when it is not 200. */
  private async fetchPage(project: string, ctx: { signal: AbortSignal }): Promise<{ page: SimplePage } | { answer: IncomingMessage }> {
    // Several indexes: the first that has the project (answers other than 404) serves it, as uv's
    // `first-index` does, so a private project cannot be shadowed by a later index's namesake.
    let url!: URL;
    let answer!: IncomingMessage;
    for (const [i, base] of this.o.pypiUpstreams.entries()) {
      url = new URL(`${normalizePypiName(project)}/`, base);
      answer = await upstreamRequest(url, {
        method: 'GET',
        headers: { accept: 'application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.1', 'accept-encoding': 'identity', 'user-agent': 'vigil-firewall' },
        timeoutMs: this.o.upstreamTimeoutMs,
        signal: ctx.signal,
      });
      if (answer.statusCode !== 404 || i === this.o.pypiUpstreams.length - 1) break;
      answer.resume();
    }
    if (answer.statusCode !== 200) return { answer };
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_PACKUMENT_BYTES) throw new UpstreamError(502, `the upstream simple page of ${project} is larger than ${MAX_PACKUMENT_BYTES} bytes`);
      chunks.push(chunk);
    }
    const json = (answer.headers['content-type'] ?? '').includes('json');
    let page: SimplePage;
    try {
      page = readSimplePage(project, Buffer.concat(chunks).toString('utf8'), json, url.href);
    } catch {
      throw new UpstreamError(502, `the upstream answered the simple page of ${project} with something that is not a PEP 691 or PEP 503 page`);
    }
    this.pages.set(project, { page, until: this.o.now() + Math.max(this.o.cacheSeconds, 60) * 1000 });
    return { page };
  }

  private async simplePage(req: IncomingMessage, res: ServerResponse, project: string, ctx: Ctx): Promise<void> {
    const fetched = await this.fetchPage(project, ctx);
    if ('answer' in fetched) {
      res.writeHead(fetched.answer.statusCode ?? 502, pick(fetched.answer.headers, RETURNED));
      fetched.answer.pipe(res);
      return;
    }
    const page = fetched.page;
    const versions = page.files.map((f) => pypiFileVersion(project, f.filename));
    const references = page.files.map((f, i) => (versions[i] === null ? null : pypiReference(project, versions[i]!, f.filename)));
    const asked = references.filter((r): r is string => r !== null);
    const answers = await ctx.sources.verdicts.lookup(asked);
    const byReference = new Map(asked.map((r, i) => [r, answers[i]!]));
    const cutoff = this.o.now() - this.o.cooldownHours * 3_600_000;
    const hidden: { version: string; reason: string }[] = [];
    const kept = page.files.filter((file, i) => {
      const lookup = references[i] === null ? undefined : byReference.get(references[i]!);
      let reason: string | null = null;
      if (lookup && !(lookup instanceof VigilUnavailable) && lookup.state === 'decided') {
        if (lookup.verdict === 'BLOCK') reason = 'verdict BLOCK';
        else if (lookup.verdict === 'WARN' && this.o.warn === 'block') reason = 'verdict WARN (warn: block)';
      }
      const uploaded = typeof file['upload-time'] === 'string' ? Date.parse(file['upload-time']) : NaN;
      if (reason === null && this.o.cooldownHours > 0 && Number.isFinite(uploaded) && uploaded > cutoff) reason = `cooldown: published ${String(file['upload-time'])}, less than ${this.o.cooldownHours} h ago`;
      if (reason !== null) hidden.push({ version: file.filename, reason });
      return reason === null;
    });
    if (hidden.length > 0 && kept.length > 0) this.log(ctx, { client: ctx.client, package: project, version: null, decision: 'filter', reason: `${hidden.length} of ${page.files.length} files hidden`, verdict: null, request_id: ctx.requestId, hidden }, 'pypi');
    if (hidden.length > 0 && kept.length === 0) {
      const reasons = [...new Set(hidden.map((h) => h.reason.replace(/^cooldown: .*/, `cooldown ${this.o.cooldownHours} h`)))].join(', ');
      const reason = `every file is hidden (${reasons})`;
      const last = asked.at(-1);
      const lookup = last === undefined ? undefined : byReference.get(last);
      const verdict = lookup && !(lookup instanceof VigilUnavailable) ? lookup : null;
      this.log(ctx, { client: ctx.client, package: project, version: null, decision: 'block', reason, verdict: verdict?.verdict ?? null, request_id: ctx.requestId, hidden }, 'pypi');
      sendJson(res, 403, blockBody({ name: project, version: null, purl: verdict?.purl ?? `pkg:pypi/${project}`, reason, verdict, dashboardUrl: this.o.dashboardUrl, requestId: ctx.requestId }));
      return;
    }
    const host = req.headers.host ?? `127.0.0.1:${(req.socket.address() as AddressInfo).port}`;
    const keptVersions = new Set(kept.map((f) => pypiFileVersion(project, f.filename)));
    const out: SimplePage = {
      name: page.name,
      files: kept.map((f) => ({ ...f, url: `http://${host}/pypi/files/${project}/${encodeURIComponent(f.filename)}` })),
      rest: Array.isArray(page.rest.versions) ? { ...page.rest, versions: (page.rest.versions as string[]).filter((v) => keptVersions.has(v)) } : page.rest,
    };
    const json = (req.headers.accept ?? '').includes('application/vnd.pypi.simple.v1+json');
    const text = json ? simpleJson(out) : simpleHtml(out);
    res.writeHead(200, { 'content-type': json ? 'application/vnd.pypi.simple.v1+json' : 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : text);
  }

  private async pypiFile(req: IncomingMessage, res: ServerResponse, project: string, filename: string, ctx: Ctx): Promise<void> {
    // `<file>.metadata` (PEP 658): the file's metadata, passed through undecided like any metadata.
    const metadata = filename.endsWith('.metadata');
    const distribution = metadata ? filename.slice(0, -'.metadata'.length) : filename;
    const cached = this.pages.get(project);
    let page = cached && cached.until > this.o.now() ? cached.page : null;
    if (page === null || !page.files.some((f) => f.filename === distribution)) {
      const fetched = await this.fetchPage(project, ctx);
      if ('page' in fetched) page = fetched.page;
      else {
        fetched.answer.resume();
        page = null;
      }
    }
    const file = page?.files.find((f) => f.filename === distribution);
    if (!file) {
      sendJson(res, 404, { error: `Vigil firewall: ${project} has no file ${distribution} upstream (request ${ctx.requestId})` });
      return;
    }
    if (!metadata) {
      const version = pypiFileVersion(project, filename);
      const reference = version === null ? `pkg:pypi/${project}` : pypiReference(project, version, filename);
      const decision: Decision =
        version === null ? decide({ reference, purl: reference, state: 'pending', verdict: null, riskScore: null, findings: null, fetch: null, refused: 'no version in the file name' }, this.o, null) : await this.decision(reference, ctx.sources, ctx.signal);
      if (ctx.signal.aborted) return;
      const verdict = decision.verdict;
      this.log(ctx, { client: ctx.client, package: project, version: version ?? filename, decision: decision.allow ? 'allow' : 'block', reason: decision.reason, verdict: verdict?.state === 'decided' ? verdict.verdict : null, request_id: ctx.requestId }, 'pypi');
      if (!decision.allow) {
        sendJson(res, 403, blockBody({ name: project, version: version ?? filename, purl: verdict?.purl ?? canonicalPurl(reference), reason: decision.reason, verdict, dashboardUrl: this.o.dashboardUrl, requestId: ctx.requestId }));
        return;
      }
    }
    const answer = await upstreamRequest(new URL(metadata ? `${file.url}.metadata` : file.url), {
      method: req.method!,
      headers: { ...pick(req.headers, ['user-agent', 'if-none-match']), 'accept-encoding': 'identity' },
      timeoutMs: this.o.upstreamTimeoutMs,
      signal: ctx.signal,
    });
    res.writeHead(answer.statusCode ?? 502, pick(answer.headers, RETURNED));
    answer.pipe(res);
    answer.once('error', () => res.destroy());
  }

  private async passThrough(req: IncomingMessage, res: ServerResponse, path: string, search: string, signal: AbortSignal): Promise<void> {
    const answer = await upstreamRequest(this.upstreamUrl(path, search), {
      method: req.method ?? 'GET',
      headers: pick(req.headers, [...FORWARDED, 'accept-encoding']),
      timeoutMs: this.o.upstreamTimeoutMs,
      signal,
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: req }),
    });
    res.writeHead(answer.statusCode ?? 502, pick(answer.headers, RETURNED));
    answer.pipe(res);
    answer.once('error', () => res.destroy());
  }
}

/**
 * Starts the npm registry firewall (docs/firewall.md): a server on `host:port` (default
 * 127.0.0.1, a port the system chooses) in front of `npmUpstream`.
 */
export async function startFirewall(options: FirewallOptions, listen: { port?: number; host?: string } = {}): Promise<Firewall> {
  const resolved = resolveOptions(options);
  const handler = new FirewallHandler(resolved);
  const server: Server = createServer((req, res) => void handler.handle(req, res));
  const host = listen.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    vigilCalls: () => handler.calls(),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // What was decided before closing is still counted.
      await handler.flush();
    },
  };
}

import { Vigil, VigilApiError, VigilError } from '@vigil/client';

/**
 * What a request's `Authorization` header gives the firewall: a key, no credentials at all (no
 * header, or an empty one: decided with the anonymous key if there is one), or a header it cannot
 * read (another scheme, an empty token or user): refused 401, never decided as anonymous, so a
 * member whose tool sends the key another way gets an error instead of the default account's answers.
 */
export type CallerCredential = { kind: 'key'; key: string } | { kind: 'none' } | { kind: 'unreadable' };

/**
 * The Vigil API key a package manager sent (docs/firewall.md "Per-caller keys"), as each sends
 * registry credentials: npm, pnpm and Yarn a token (`//host/:_authToken=`, `npmAuthToken`) as
 * `Authorization: Bearer <key>`; pip and uv the user and password of the index URL as
 * `Authorization: Basic`, the key being the password (or, with no password, the user).
 */
export function callerKey(authorization: string | undefined): CallerCredential {
  if (authorization === undefined || authorization.trim() === '') return { kind: 'none' };
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) return { kind: 'key', key: bearer[1]! };
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    const password = colon < 0 ? '' : decoded.slice(colon + 1);
    const key = password !== '' ? password : user;
    if (key !== '') return { kind: 'key', key };
  }
  return { kind: 'unreadable' };
}

/** What checking a caller's key found: usable (with its account), or refused with the status to answer. */
export type KeyCheck = { ok: true; accountId: string } | { ok: false; status: 401 | 403 | 503; why: string };

/**
 * Checks callers' keys with `GET /v1/account`: a key Vigil does not know is 401, one that cannot
 * verify (no `verify` scope, not a paid plan; with a named policy also no `policies` scope) 403.
 * Answers are reused (usable ones `ttlMs`, refusals 5 s) so a busy install costs one check per key.
 */
export class KeyChecker {
  private readonly cache = new Map<string, { value: KeyCheck; until: number }>();
  private readonly inFlight = new Map<string, Promise<KeyCheck>>();

  constructor(
    private readonly vigilUrl: string,
    private readonly timeoutMs: number,
    private readonly ttlMs: number,
    private readonly needsPolicies: boolean,
    private readonly now: () => number,
  ) {}

  check(key: string): Promise<KeyCheck> {
    const hit = this.cache.get(key);
    if (hit && hit.until > this.now()) return Promise.resolve(hit.value);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const promise = this.ask(key).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  private async ask(key: string): Promise<KeyCheck> {
    let value: KeyCheck;
    let client: Vigil;
    try {
      client = new Vigil({ baseUrl: this.vigilUrl, apiKey: key, timeout: this.timeoutMs, maxRetries: 1, retryBudget: this.timeoutMs * 2 });
    } catch {
      // Not even of a key's form: refused without asking Vigil.
      return { ok: false, status: 401, why: 'not a Vigil API key (expected vgl_<8 hex>_<48 hex>)' };
    }
    try {
      const self = await client.account.get();
      const missing = ['verify', ...(this.needsPolicies ? ['policies'] : [])].filter((s) => !(self.key.scopes as string[]).includes(s));
      if (self.account.plan !== 'paid') value = { ok: false, status: 403, why: `the key's account ${self.account.name} is on the ${self.account.plan} plan; the firewall needs a paid plan` };
      else if (missing.length > 0) value = { ok: false, status: 403, why: `the key lacks the ${missing.join(' and ')} scope${missing.length > 1 ? 's' : ''}` };
      else value = { ok: true, accountId: self.account.id };
    } catch (error) {
      if (error instanceof VigilApiError && error.status === 401) value = { ok: false, status: 401, why: `Vigil refused the key: ${error.detail}` };
      else {
        // Not the key's fault: not remembered, the next request asks again.
        const why = error instanceof VigilApiError ? `Vigil answered ${error.status}: ${error.detail}` : error instanceof VigilError || error instanceof Error ? error.message : String(error);
        return { ok: false, status: 503, why: `cannot check the key: Vigil unavailable: ${why}` };
      }
    }
    const ttl = value.ok ? this.ttlMs : 5_000;
    if (ttl > 0) this.cache.set(key, { value, until: this.now() + ttl });
    if (this.cache.size > 10_000) for (const [k, entry] of this.cache) if (entry.until <= this.now()) this.cache.delete(k);
    return value;
  }
}

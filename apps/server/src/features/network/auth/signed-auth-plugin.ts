import { checkFreshness, verifySignedRequest } from '@vigil/crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { VigilError } from '../../../platform/errors.js';
import { depthBoundedJsonParser } from '../../../platform/http/json-body.js';
import type { PermitCheck } from '../metagraph/index.js';
import type { ValidatorRecord } from '../validators/validators.js';
import type { ReplayStore } from './replay-store.js';
import { createSignatureFailureGate, type SignatureFailureGate } from './signature-failure-gate.js';
import type { SignatureFailureStore } from './signature-failure-store.js';
import { SIGNED_AUTH_DEFAULTS } from './signed-auth-settings.js';
import { signedHeaders, signedHeadersWellFormed } from './signed-headers.js';
import { isIpAllowed } from './source-ip.js';

export { FAILURE_CEILING_FACTOR } from './signature-failure-gate.js';

/**
 * Who may call a route:
 * - `miner`: any hotkey with a valid, fresh, first-use signature;
 * - `validator`: additionally registered on netuid 76 with a validator permit, an active validator
 *   record, and a source IP in that record's allowlist;
 * - `validator-registration`: as `validator`, except that a permitted hotkey with no record yet is
 *   let through (it is registering; there is no allowlist to check against). A hotkey that has a
 *   record is checked exactly as on `validator` routes, allowlist included, so a leaked key alone
 *   cannot move a validator's allowlist to another host.
 */
export type SignedBy = 'validator' | 'validator-registration' | 'miner';

export interface Signer {
  hotkey: string;
  role: 'validator' | 'miner';
  /** The validator's uid on the metagraph; null for miners. */
  uid: number | null;
  /**
   * Whether a validator record existed when this request was admitted, so its status and allowlist
   * were checked. False for a first registration (and for miners): such a caller may create a
   * record, never overwrite one that a concurrent registration wrote after it was admitted.
   */
  hadRecord: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Requires a signed request from this kind of signer (features/network/auth/signed-auth-plugin.ts). */
    signedBy?: SignedBy;
  }
  interface FastifyRequest {
    /** Set once a signed route's checks pass; null everywhere else. */
    signer: Signer | null;
    /** The JSON body exactly as received, in scopes where signedAuthPlugin is registered. */
    rawBody: Buffer | null;
  }
}

export interface SignedAuthPluginOptions {
  /**
   * What signatures must be bound to: this server's identity key (`server_hotkey` of
   * /v1/server-identity), so a request signed for another deployment never verifies here.
   */
  audience: string;
  /** The permit source; a CachedMetagraph in production. */
  metagraph: { check(hotkey: string): Promise<PermitCheck> };
  /** The validator record of a hotkey, e.g. `(hotkey) => findValidator(db, hotkey)`. */
  findValidator: (hotkey: string) => Promise<Pick<ValidatorRecord, 'status' | 'allowedIps'> | undefined>;
  replayStore: ReplayStore;
  failureStore: SignatureFailureStore;
  /** Default 120 (spec part 8). */
  freshnessSeconds?: number;
  /**
   * Default 20 (SIGNED_AUTH_DEFAULTS): failures per source IP *and hotkey* per minute. Failures per
   * source IP alone are capped at FAILURE_CEILING_FACTOR times this.
   */
  failureLimitPerMinute?: number;
  /** Clock in epoch ms, for tests. */
  now?: () => number;
}

/** The body limit of a signed route that sets none (registration, claims, progress reports). */
export const SIGNED_ROUTE_BODY_LIMIT = 64 * 1024;

/** The options once checked, with defaults filled in. */
interface SignedAuthContext {
  audience: string;
  metagraph: SignedAuthPluginOptions['metagraph'];
  findValidator: SignedAuthPluginOptions['findValidator'];
  replayStore: ReplayStore;
  freshnessSeconds: number;
  now: () => number;
  failures: SignatureFailureGate;
}

function positive(value: number | undefined, fallback: number, argument: string): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !Number.isFinite(chosen) || chosen <= 0) {
    throw new RangeError(`${argument}: expected a number > 0, got ${String(value)}`);
  }
  return chosen;
}

/** Refuses, at registration, options that would fail on the first signed request instead. */
function signedAuthContext(options: SignedAuthPluginOptions): SignedAuthContext {
  if (typeof options.metagraph?.check !== 'function') throw new TypeError('options.metagraph: expected an object with check(hotkey)');
  if (typeof options.findValidator !== 'function') throw new TypeError('options.findValidator: expected a function');
  if (typeof options.replayStore?.claim !== 'function') throw new TypeError('options.replayStore: expected a ReplayStore');
  if (typeof options.failureStore?.failures !== 'function' || typeof options.failureStore.record !== 'function') {
    throw new TypeError('options.failureStore: expected a SignatureFailureStore');
  }
  const { metagraph, findValidator, replayStore, failureStore, audience } = options;
  if (typeof audience !== 'string' || audience === '') throw new TypeError('options.audience: expected the server identity key');
  const freshnessSeconds = positive(options.freshnessSeconds, SIGNED_AUTH_DEFAULTS.freshnessSeconds, 'options.freshnessSeconds');
  const failureLimit = positive(
    options.failureLimitPerMinute,
    SIGNED_AUTH_DEFAULTS.failureLimitPerMinute,
    'options.failureLimitPerMinute',
  );
  const now = options.now ?? Date.now;
  const failures = createSignatureFailureGate(failureStore, failureLimit, now);
  return { audience, metagraph, findValidator, replayStore, freshnessSeconds, now, failures };
}

/**
 * Checks that need no body, before it is read: the failure limit, the headers' presence and
 * form. A forged request with a huge body is refused for the price of a counter lookup.
 */
async function checkBeforeBody(ctx: SignedAuthContext, request: FastifyRequest): Promise<void> {
  await ctx.failures.refuseIfOverLimit(request);
  const { hotkey, timestamp, signature } = signedHeaders(request);
  if (hotkey === undefined || timestamp === undefined || signature === undefined) {
    throw await ctx.failures.failure(request, 'missing_signature');
  }
  if (!signedHeadersWellFormed({ hotkey, timestamp, signature })) throw await ctx.failures.failure(request, 'invalid_signature');
}

/** Signature over the raw body, freshness, then first use of the triple. Returns the signing hotkey. */
async function authenticate(ctx: SignedAuthContext, request: FastifyRequest): Promise<string> {
  // Present and well formed: checked by checkBeforeBody in onRequest.
  const headers = signedHeaders(request);
  const hotkey = headers.hotkey!;
  const timestampText = headers.timestamp!;
  const signature = headers.signature!;

  const verified = verifySignedRequest({
    audience: ctx.audience,
    method: request.method,
    // The request target exactly as sent; fastify's own url may be rewritten.
    pathWithQuery: request.raw.url ?? request.url,
    body: request.rawBody ?? undefined,
    hotkey,
    timestamp: timestampText,
    signature,
  });
  if (!verified) throw await ctx.failures.failure(request, 'invalid_signature');

  // verifySignedRequest accepted only canonical decimal digits, so this is exact.
  const timestamp = Number(timestampText);
  const nowSeconds = Math.floor(ctx.now() / 1000);
  if (!checkFreshness(timestamp, nowSeconds, ctx.freshnessSeconds)) throw await ctx.failures.failure(request, 'signature_stale');

  // Claimed only now, after the signature verified: a forger cannot burn someone else's triple.
  // Kept well past the moment the timestamp leaves the window, so an instance whose clock lags
  // the one that claimed it still finds the claim; after that, freshness refuses the triple.
  const ttlSeconds = Math.max(1, timestamp + 2 * ctx.freshnessSeconds + 60 - nowSeconds);
  let firstUse: boolean;
  try {
    firstUse = await ctx.replayStore.claim(hotkey, timestamp, signature, ttlSeconds);
  } catch (error) {
    // Unable to tell a replay from a first use: refuse with the retryable 502 that
    // docs/errors.md names for a dependency that did not answer, and let the client retry.
    request.log.error({ err: error }, 'replay store unavailable');
    throw new VigilError('upstream_unavailable', { cause: error });
  }
  // Refused, but not counted against the failure limit: the signature verified, so the key's
  // holder signed it. An honest signer meets replays when it restarts within the lead its
  // predecessor signed ahead (docs/protocol.md, "Signature-failure limit"), and counting them locked
  // a restarted validator out for a minute; a captured request replayed in a flood costs what any
  // correctly signed request costs, which the rate limits bound.
  if (!firstUse) throw new VigilError('signature_replayed');
  return hotkey;
}

/** A validator's permit, then its record and allowlist (a registering hotkey may have no record yet). */
async function admitValidator(
  ctx: SignedAuthContext,
  request: FastifyRequest,
  hotkey: string,
  signedBy: Exclude<SignedBy, 'miner'>,
): Promise<Signer> {
  const permit = await ctx.metagraph.check(hotkey);
  if (permit.status === 'unavailable') {
    request.log.warn({ reason: permit.reason }, 'metagraph unavailable for a validator permit check');
    throw new VigilError('metagraph_unavailable');
  }
  if (permit.status === 'not_registered') throw new VigilError('hotkey_not_registered');
  if (!permit.validatorPermit) throw new VigilError('no_validator_permit');

  const record = await ctx.findValidator(hotkey);
  if (record === undefined) {
    if (signedBy !== 'validator-registration') throw new VigilError('validator_not_registered');
  } else {
    if (record.status === 'pending') throw new VigilError('validator_pending');
    if (record.status !== 'active') throw new VigilError('validator_revoked');
    if (!isIpAllowed(request.ip, record.allowedIps)) throw new VigilError('ip_not_allowlisted', { arg: request.ip });
  }
  return { hotkey, role: 'validator', uid: permit.uid, hadRecord: record !== undefined };
}

const signedAuth: FastifyPluginAsync<SignedAuthPluginOptions> = async (app, options) => {
  const ctx = signedAuthContext(options);

  // Signed routes read only what they take: a route without its own limit gets a small one, so a
  // caller that is not even authenticated yet cannot make the server buffer megabytes.
  app.addHook('onRoute', (route) => {
    if (route.config?.signedBy !== undefined && route.bodyLimit === undefined) route.bodyLimit = SIGNED_ROUTE_BODY_LIMIT;
  });

  app.decorateRequest('signer', null);
  app.decorateRequest('rawBody', null);

  // The signature covers the body bytes as sent, so they are kept before JSON.parse sees them.
  // On signed routes a malformed body is answered only after authentication (see preValidation),
  // so an unauthenticated caller learns nothing about how its body would be parsed.
  const parseJson = depthBoundedJsonParser(app);
  const deferredParseErrors = new WeakMap<FastifyRequest, Error>();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    request.rawBody = raw;
    parseJson(request, raw.toString('utf8'), (error, value) => {
      if (error && request.routeOptions.config.signedBy !== undefined) {
        deferredParseErrors.set(request, error);
        done(null, undefined);
        return;
      }
      done(error, value);
    });
  });

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config.signedBy === undefined) return;
    await checkBeforeBody(ctx, request);
  });

  // preValidation rather than preHandler: after the body is parsed (the signature needs its bytes)
  // but before schema validation, so unauthenticated callers get 401/403, never a 422 that
  // describes the route's schema.
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const signedBy = request.routeOptions.config.signedBy;
    if (signedBy === undefined) return;

    const hotkey = await authenticate(ctx, request);
    request.signer =
      signedBy === 'miner' ? { hotkey, role: 'miner', uid: null, hadRecord: false } : await admitValidator(ctx, request, hotkey, signedBy);

    const parseError = deferredParseErrors.get(request);
    if (parseError) throw parseError;
  });
};

/**
 * Authentication of validator- and miner-signed requests (spec part 5 item 8; docs/protocol.md,
 * "Signed requests"). Routes opt in with `config: { signedBy }`; checks run in this order, each
 * answered with its catalogue error. Before the body is read: failure limit (429), headers present
 * and well formed. Then: signature over the raw body, freshness, replay, then for validators permit,
 * record and allowlist.
 * Register it in the scope that holds the signed routes: it replaces that scope's JSON parser with
 * one that keeps `request.rawBody`. It needs errorsPlugin to turn its errors into responses.
 */
export const signedAuthPlugin = fp(signedAuth, { name: 'vigil-signed-auth', fastify: '5.x' });

import { createHash } from 'node:crypto';
import { canonicalJson, IDEMPOTENCY_HEADERS, IdempotencyKey } from '@vigil/core';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import '../api-key-plugin.js';
import type { Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import type { SecretBox } from '../../../platform/secrets/secret-box.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
  type IdempotentRequest,
} from './idempotency-records.js';
import '../../../platform/http/route-config.js';

export interface IdempotencyPluginOptions {
  db: Kysely<Database>;
  /** Epoch-ms clock (tests move it past the 24 h). */
  now: () => number;
  /** VIGIL_HANDLER_TIMEOUT_MS: a running claim older than twice the route's timeout may be taken over. */
  handlerTimeoutMs: number;
  /** How often this instance deletes expired keys, at most (lazily, on a claim). */
  purgeIntervalMs?: number;
  /** Seals the stored answers of `idempotent: 'sealed'` routes (answers that show a secret once). */
  secrets?: SecretBox;
}

const KEY_HEADER = IDEMPOTENCY_HEADERS.key.toLowerCase();
const REPLAYED_HEADER = IDEMPOTENCY_HEADERS.replayed;

/** Response headers a replay repeats; the rest (request id, rate-limit counters, dates) describe the new request. */
function storedHeaders(reply: FastifyReply): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    const lower = name.toLowerCase();
    if (value === undefined || !(lower === 'content-type' || lower === 'location' || lower.startsWith('x-vigil-'))) continue;
    kept[lower] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return kept;
}

function bodyFingerprint(body: unknown): string {
  try {
    // RFC 8785: the same JSON sent with other key order or spacing is the same request.
    return canonicalJson(body ?? null);
  } catch {
    return JSON.stringify(body ?? null);
  }
}

interface Pending {
  identity: IdempotentRequest;
  token?: string;
}

/**
 * `Idempotency-Key` on routes with `config: { idempotent: true }` (docs/idempotency.md): the first
 * request with a key (per account) runs and its answer is stored for 24 h; a repeat with the same
 * method, target and body gets that answer with `Idempotent-Replayed: true`, without running again.
 * The key is read in preValidation (the body's fingerprint is taken before the schema reshapes it)
 * and claimed in preHandler, after validation: a request refused by its schema stores nothing, so a
 * corrected request may reuse the key. 5xx answers are not stored.
 */
const idempotency: FastifyPluginAsync<IdempotencyPluginOptions> = async (app, options) => {
  const { db, now } = options;
  const purgeIntervalMs = options.purgeIntervalMs ?? 3_600_000;
  let lastPurge = 0;
  const pending = new WeakMap<FastifyRequest, Pending>();

  const honours = (value: boolean | 'sealed' | undefined) => value === true || value === 'sealed';
  // What a sealed answer is bound to: its account and key, so a stored copy opens for that replay only.
  const sealContext = (identity: IdempotentRequest) => `idempotency_keys.body:${identity.accountId}:${identity.key}`;

  app.addHook('onRoute', (route) => {
    if (honours(route.config?.idempotent) && route.config?.apiKey === undefined) {
      // Keys are scoped per account: a route without an API key has no account to scope them to.
      throw new TypeError(`config.idempotent of ${String(route.method)} ${route.url}: needs config.apiKey`);
    }
    if (route.config?.idempotent === 'sealed' && options.secrets === undefined) {
      throw new TypeError(`config.idempotent 'sealed' of ${String(route.method)} ${route.url}: the idempotency plugin has no secret box`);
    }
  });

  app.addHook('preValidation', async (request) => {
    if (!honours(request.routeOptions.config.idempotent)) return;
    const raw = request.headers[KEY_HEADER];
    if (raw === undefined) return;
    const parsed = IdempotencyKey.safeParse(Array.isArray(raw) ? raw.join(', ') : raw);
    if (!parsed.success) {
      throw new VigilError('validation_error', {
        issues: [{ path: `headers.${KEY_HEADER}`, message: 'expected 1-255 printable ASCII characters' }],
      });
    }
    const principal = request.principal;
    if (principal === null) throw new Error('idempotent route reached without a verified key');
    const fingerprint = createHash('sha256')
      .update(`${request.method}\n${request.url}\n${bodyFingerprint(request.body)}`)
      .digest('hex');
    pending.set(request, {
      identity: { accountId: principal.accountId, key: parsed.data, method: request.method, path: request.url, fingerprint },
    });
  });

  app.addHook('preHandler', async (request, reply) => {
    const state = pending.get(request);
    if (state === undefined) return;
    const at = now();
    if (at - lastPurge >= purgeIntervalMs) {
      lastPurge = at;
      await purgeExpiredIdempotencyKeys(db, at);
    }
    // Stale, and open to a takeover, two handler timeouts after the claim: by then its request was
    // answered (504 at the latest, one timeout), and a handler still running after its 504 has had
    // another timeout to finish. Counted from the claim alone, so it needs no write at the 504,
    // when the database may be what is stuck.
    const takeoverAfterMs = 2 * (request.routeOptions.config.timeoutMs ?? options.handlerTimeoutMs);
    const claim = await claimIdempotencyKey(db, state.identity, { now: at, takeoverAfterMs });
    if (claim.kind === 'owner') {
      state.token = claim.token;
      return;
    }
    pending.delete(request);
    const { status, headers } = claim.response;
    const body = request.routeOptions.config.idempotent === 'sealed' ? options.secrets!.open(claim.response.body, sealContext(state.identity)) : claim.response.body;
    // A string with a JSON content type is sent as is: the stored bytes, not re-serialized.
    return reply.code(status).headers(headers).header(REPLAYED_HEADER, 'true').send(body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const state = pending.get(request);
    if (state?.token === undefined) return payload;
    pending.delete(request);
    const { identity, token } = state;
    const status = reply.statusCode;
    // The handler may still be running and may still commit: the key stays claimed until the claim
    // is stale. Nothing is written for a 504: it must leave at once (plugins/handler-timeout.ts).
    if (status === 504) return payload;
    try {
      // An answer without a body (204 No Content: a DELETE) is stored as the empty body, so its replay is that 204.
      const empty = payload === undefined || payload === null;
      if (status >= 500 || !(empty || typeof payload === 'string' || Buffer.isBuffer(payload))) {
        await releaseIdempotencyKey(db, identity, token);
      } else {
        const text = empty ? '' : typeof payload === 'string' ? payload : payload.toString('utf8');
        const body = request.routeOptions.config.idempotent === 'sealed' ? options.secrets!.seal(text, sealContext(identity)) : text;
        await completeIdempotencyKey(db, identity, token, { status, headers: storedHeaders(reply), body });
      }
    } catch (error) {
      // The answer still goes out; the key stays claimed until it is stale, and a retry then runs.
      request.log.warn({ err: error, idempotency_key: identity.key }, 'could not store the idempotent response');
    }
    return payload;
  });
};

export const idempotencyPlugin = fp(idempotency, { name: 'vigil-idempotency', fastify: '5.x' });

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Honour `Idempotency-Key` (docs/idempotency.md); needs `apiKey` (keys are scoped per account).
     * `'sealed'`: the answer shows a secret once, so its stored copy is sealed with the server key.
     */
    idempotent?: boolean | 'sealed';
  }
}

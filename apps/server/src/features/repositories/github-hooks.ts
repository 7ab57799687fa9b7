import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_JSON_DEPTH, jsonTextDepthExceeds, type RepositoryHookAnswer } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { SecretBoxError, type SecretBox } from '../../platform/secrets/secret-box.js';
import { parseGithubRepositoryUrl } from './providers/github-url.js';
import { enqueuePushJob } from './repository-jobs.js';
import { webhookSecretContext, type SourceRepositoryRow } from './source-repositories.js';

export interface GithubHookDelivery {
  /** X-GitHub-Event. */
  event: string | undefined;
  /** X-GitHub-Delivery. */
  delivery: string | undefined;
  /** X-Hub-Signature-256. */
  signature: string | undefined;
  /** The body exactly as received: what the signature covers. */
  rawBody: Buffer;
  now: number;
}

export interface GithubHookOutcome {
  answer: RepositoryHookAnswer;
  /** 202 for a queued push, 200 for everything answered at once. */
  status: 200 | 202;
}

const SIGNATURE_RE = /^sha256=([0-9a-f]{64})$/;
// GitHub's delivery ids are GUIDs; anything printable and short enough to store is accepted.
const DELIVERY_RE = /^[\x21-\x7e]{1,100}$/;
const SHA_RE = /^[0-9a-f]{40}$/;
const ZERO_SHA = '0'.repeat(40);

function headerRefusal(header: string, message: string): VigilError {
  return new VigilError('validation_error', { issues: [{ path: `headers.${header}`, message }] });
}

function bodyRefusal(path: string, message: string): VigilError {
  return new VigilError('validation_error', { issues: [{ path: `body.${path}`, message }] });
}

/** HMAC-SHA-256 of the raw body under `secret`, compared in constant time with the header's hex. */
function signatureMatches(secret: string, rawBody: Buffer, signature: Buffer): boolean {
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return expected.byteLength === signature.byteLength && timingSafeEqual(expected, signature);
}

type HookPayload = {
  repository?: { clone_url?: unknown; html_url?: unknown; default_branch?: unknown };
  ref?: unknown;
  before?: unknown;
  after?: unknown;
  deleted?: unknown;
};

/**
 * A delivery of a GitHub repository webhook. The signature is the authentication: the repository
 * the payload names is looked up (every account that registered it), and the delivery must be
 * signed with one of their webhook secrets. `ping` is answered; a `push` to the default branch is
 * queued for a worker (answered 202 at once); anything else is acknowledged and ignored.
 */
export async function receiveGithubHook(db: Kysely<Database>, box: SecretBox, input: GithubHookDelivery): Promise<GithubHookOutcome> {
  if (input.signature === undefined || input.signature === '') throw new VigilError('hook_signature_missing');
  const event = input.event?.trim();
  if (event === undefined || event === '') throw headerRefusal('x-github-event', 'expected the event name GitHub sends (push, ping)');
  const delivery = input.delivery?.trim();
  if (delivery === undefined || !DELIVERY_RE.test(delivery)) {
    throw headerRefusal('x-github-delivery', 'expected the delivery id GitHub sends (1-100 printable characters)');
  }
  let payload: HookPayload;
  try {
    const text = input.rawBody.toString('utf8');
    // The same bound as every JSON body (MAX_JSON_DEPTH, docs/api.md): this route parses its own.
    if (jsonTextDepthExceeds(text)) throw new Error(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    payload = parsed as HookPayload;
  } catch (error) {
    throw new VigilError('bad_request', { cause: error });
  }
  const repositoryUrl = [payload.repository?.clone_url, payload.repository?.html_url].find((u): u is string => typeof u === 'string');
  if (repositoryUrl === undefined) throw bodyRefusal('repository', 'expected repository.clone_url or repository.html_url');
  const parsedUrl = parseGithubRepositoryUrl(repositoryUrl);
  const candidates =
    parsedUrl === null ? [] : await db.selectFrom('source_repositories').selectAll().where('repo_key', '=', parsedUrl.key).execute();
  if (candidates.length === 0) throw new VigilError('hook_repository_unknown', `repository: ${repositoryUrl} is not registered with Vigil`);

  const hex = SIGNATURE_RE.exec(input.signature.trim())?.[1];
  const signature = hex === undefined ? undefined : Buffer.from(hex, 'hex');
  let repository: SourceRepositoryRow | undefined;
  if (signature !== undefined) {
    for (const candidate of candidates) {
      let secret: string;
      try {
        secret = box.open(candidate.webhook_secret, webhookSecretContext(candidate.repository_id));
      } catch (error) {
        // Sealed under another server key (server-key replaced): that registration cannot be checked.
        if (error instanceof SecretBoxError) continue;
        throw error;
      }
      if (signatureMatches(secret, input.rawBody, signature)) {
        repository = candidate;
        break;
      }
    }
  }
  if (repository === undefined) throw new VigilError('hook_signature_invalid');

  const answer = (status: RepositoryHookAnswer['status'], extra: { commit?: string; reason?: string } = {}): RepositoryHookAnswer => ({
    status,
    repository: repository.repository_id,
    delivery,
    commit: extra.commit ?? null,
    reason: extra.reason ?? null,
  });
  if (event === 'ping') return { status: 200, answer: answer('pong') };
  if (event !== 'push') return { status: 200, answer: answer('ignored', { reason: `event ${event} is not handled; only push and ping are` }) };

  if (typeof payload.ref !== 'string') throw bodyRefusal('ref', 'expected the pushed ref, e.g. refs/heads/main');
  if (typeof payload.after !== 'string' || !SHA_RE.test(payload.after)) throw bodyRefusal('after', 'expected the pushed commit (40 hex)');
  if (typeof payload.before !== 'string' || !SHA_RE.test(payload.before)) throw bodyRefusal('before', 'expected the previous commit (40 hex)');
  const defaultBranch = payload.repository?.default_branch;
  if (typeof defaultBranch !== 'string' || defaultBranch === '') throw bodyRefusal('repository.default_branch', 'expected the repository\u2019s default branch');
  if (payload.deleted === true || payload.after === ZERO_SHA) {
    return { status: 200, answer: answer('ignored', { reason: `${payload.ref} was deleted` }) };
  }
  if (payload.ref !== `refs/heads/${defaultBranch}`) {
    return { status: 200, answer: answer('ignored', { reason: `${payload.ref} is not the default branch (refs/heads/${defaultBranch})` }) };
  }
  await enqueuePushJob(db, {
    repositoryId: repository.repository_id,
    deliveryId: delivery,
    ref: payload.ref,
    before: payload.before,
    after: payload.after,
    now: input.now,
  });
  return { status: 202, answer: answer('queued', { commit: payload.after }) };
}

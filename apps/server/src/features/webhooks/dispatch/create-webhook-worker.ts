import { randomBytes } from 'node:crypto';
import { signWebhookPayload } from '@vigil/webhooks';
import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { webhookEventOf } from '../../../platform/outbox.js';
import type { SecretBox } from '../../../platform/secrets/secret-box.js';
import { claimDeliveries, fanOutEvents, FAN_OUT_BATCH, pruneEvents, recordAttempt, releaseClaims, type ClaimedDelivery } from '../webhook-deliveries.js';
import { signingSecret } from '../webhook-endpoints.js';
import { systemResolver, type HostResolver } from './address-policy.js';
import { sendDelivery, type DeliveryOutcome, type DeliveryRequest } from './send-delivery.js';
import type { WebhookSettings } from '../webhook-settings.js';
import { pollEvery } from '../../../platform/jobs/poll-every.js';
import { countWebhookAttempt } from '../../../platform/metrics/index.js';

/** The part of a pino / fastify logger the worker writes to. */
export interface WebhookWorkerLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const WEBHOOK_USER_AGENT = 'Vigil-Webhooks/1';

/** A claim outlives the attempt's timeout by this much (time to record the outcome). */
export const LEASE_MARGIN_MS = 5_000;

/** How often retention runs. */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface CreateWebhookWorkerOptions {
  db: Kysely<Database>;
  secrets: SecretBox;
  settings: Pick<WebhookSettings, 'timeoutMs' | 'concurrency' | 'endpointConcurrency' | 'accountConcurrency' | 'pollMs' | 'allowPrivate' | 'retentionDays'>;
  logger?: WebhookWorkerLogger;
  /** Epoch-ms clock (Date.now by default): tests move it to make retries due. */
  now?: () => number;
  /** In [0, 1): the retry jitter. */
  random?: () => number;
  resolver?: HostResolver;
  /** The HTTP attempt (sendDelivery by default). */
  send?: (request: DeliveryRequest) => Promise<DeliveryOutcome>;
  /** Names this worker's claims (random by default). */
  holderId?: string;
}

export interface WebhookWorker {
  readonly holderId: string;
  /** Works now, then every pollMs (and whenever an attempt ends) until stop(). */
  start(): void;
  /** Claims nothing more, waits for the attempts in flight, gives back any claim still held. */
  stop(): Promise<void>;
  /**
   * Fans out, claims and sends until nothing is due and nothing is in flight; resolves to how many
   * attempts it made. For tests and `drain`-style callers.
   */
  drain(): Promise<number>;
}

/**
 * The webhook worker (docs/webhooks.md, "Delivery"): fans out new outbox events into deliveries,
 * claims due deliveries (durably, in the database: any number of workers share the work, a delivery
 * is claimed by one) and sends them, at most `concurrency` at once in this process and at most
 * `endpointConcurrency` per endpoint and `accountConcurrency` per account across all workers, so a
 * slow endpoint holds only its own slots and one account's slow endpoints only that account's.
 */
export function createWebhookWorker(options: CreateWebhookWorkerOptions): WebhookWorker {
  const now = options.now ?? Date.now;
  const send = options.send ?? sendDelivery;
  const resolver = options.resolver ?? systemResolver;
  const holderId = options.holderId ?? `webhooks-${randomBytes(6).toString('hex')}`;
  const { settings } = options;
  const leaseMs = settings.timeoutMs + LEASE_MARGIN_MS;
  const inFlight = new Set<Promise<void>>();
  let attemptsMade = 0;
  let stopped = false;
  let ticking: Promise<boolean> | undefined;
  let again = false;
  let fanOutAgain = false;
  let lastPrune = 0;

  async function attempt(claim: ClaimedDelivery): Promise<void> {
    let outcome: DeliveryOutcome;
    if (claim.event === undefined) {
      outcome = { status: null, error: 'the event is no longer stored', excerpt: null, latencyMs: 0 };
    } else {
      const sentAt = now();
      const body = Buffer.from(JSON.stringify(webhookEventOf(claim.event)), 'utf8');
      const timestamp = Math.floor(sentAt / 1000);
      const secret = await signingSecret(options.db, options.secrets, claim.webhookId, sentAt);
      outcome = await send({
        url: claim.url,
        body,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': WEBHOOK_USER_AGENT,
          'X-Vigil-Event': claim.event.kind,
          'X-Vigil-Delivery': claim.deliveryId,
          'X-Vigil-Timestamp': String(timestamp),
          'X-Vigil-Signature': signWebhookPayload(secret, timestamp, body),
        },
        timeoutMs: settings.timeoutMs,
        allowPrivate: settings.allowPrivate,
        resolver,
      });
    }
    attemptsMade += 1;
    countWebhookAttempt(outcome.status, outcome.latencyMs);
    await recordAttempt(options.db, { deliveryId: claim.deliveryId, owner: holderId }, outcome, {
      now: now(),
      ...(options.random ? { random: options.random } : {}),
    });
  }

  function launch(claim: ClaimedDelivery): void {
    const task: Promise<void> = attempt(claim)
      .catch((error: unknown) => {
        // The claim runs out (lease) and the delivery is tried again, by this worker or another.
        options.logger?.error({ err: error, delivery: claim.deliveryId, webhook: claim.webhookId }, 'webhook worker: attempt could not be recorded');
      })
      .finally(() => {
        inFlight.delete(task);
        if (loop.running && !stopped) kick();
      });
    inFlight.add(task);
  }

  /**
   * One pass: fan out everything new (on a poll, not after each attempt: new events wait at most
   * pollMs), claim what fits, launch it. True when it found work.
   */
  async function tickOnce(fanOut: boolean): Promise<boolean> {
    let worked = false;
    while (fanOut) {
      if (stopped) return worked;
      const fanned = await fanOutEvents(options.db, now());
      if (fanned > 0) worked = true;
      if (fanned < FAN_OUT_BATCH) break;
    }
    if (now() - lastPrune >= PRUNE_INTERVAL_MS) {
      lastPrune = now();
      await pruneEvents(options.db, now(), settings.retentionDays * 24 * 3600 * 1000);
    }
    const free = settings.concurrency - inFlight.size;
    if (free > 0 && !stopped) {
      const claimed = await claimDeliveries(options.db, {
        now: now(),
        owner: holderId,
        leaseMs,
        limit: free,
        perEndpoint: settings.endpointConcurrency,
        perAccount: settings.accountConcurrency,
        reclaimExpired: fanOut,
      });
      for (const claim of claimed) launch(claim);
      if (claimed.length > 0) worked = true;
    }
    return worked;
  }

  function tick(fanOut = true): Promise<boolean> {
    if (ticking !== undefined) {
      again = true;
      if (fanOut) fanOutAgain = true;
      return ticking;
    }
    ticking = (async () => {
      let worked = false;
      let withFanOut = fanOut;
      do {
        again = false;
        fanOutAgain = false;
        if (await tickOnce(withFanOut)) worked = true;
        withFanOut = fanOutAgain;
      } while (again && !stopped);
      return worked;
    })().finally(() => {
      ticking = undefined;
    });
    return ticking;
  }

  const logError = (error: unknown) => options.logger?.error({ err: error }, 'webhook worker: could not fan out or claim deliveries');

  function kick(): void {
    tick(false).catch(logError);
  }

  const loop = pollEvery(settings.pollMs, () => tick(), logError);

  return {
    holderId,
    start() {
      if (loop.running) return;
      stopped = false;
      loop.start();
    },
    async stop() {
      stopped = true;
      loop.stop();
      await ticking?.catch(() => undefined);
      await Promise.allSettled([...inFlight]);
      await releaseClaims(options.db, holderId, now()).catch(() => 0);
    },
    async drain() {
      const before = attemptsMade;
      for (;;) {
        const worked = await tick();
        if (inFlight.size > 0) {
          await Promise.race([...inFlight]);
          continue;
        }
        if (!worked) break;
      }
      return attemptsMade - before;
    },
  };
}

import { Readable } from 'node:stream';
import { parsePackageRef } from '@vigil/core';
import { createNpmRegistry, createPypiRegistry, fetchPackageRef, type NpmRegistry, type PypiRegistry, type RegistrySettings } from '@vigil/registries';
import type { Kysely } from 'kysely';
import { keepRegistryProvenance, uploadArtifact } from '../artifacts/index.js';
import type { BlobStore } from '../../platform/blobs/index.js';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { pollEvery } from '../../platform/jobs/poll-every.js';
import { createStopSwitch } from '../../platform/jobs/retry-write.js';
import { singleFlightDrain } from '../../platform/jobs/single-flight-drain.js';
import { claimDueFetch, releaseFetch, type ClaimedFetch, type Outcome } from './fetch-queue.js';
import { MAX_REGISTRY_RETRY_MS, type RegistryFetchSettings } from './fetch-settings.js';
import { registryFetchAttempts } from '../../platform/metrics/index.js';
import { OUTCOME_WRITE_RETRY_MS, recordOutcome } from './record-outcome.js';
import { ensureRegistryAccount, REGISTRY_ACCOUNT_ID } from './registry-account.js';
import { SpanKind, SpanStatusCode, withSpan } from '../../platform/tracing/index.js';

export interface RegistryConnectors {
  npm: NpmRegistry;
  pypi: PypiRegistry;
  close(): void;
}

/**
 * The connectors of the configured registries. `overrides` (tests: no connector-level retries) are
 * laid over both registries' settings; the artifact limit is the server's.
 */
export function createRegistryConnectors(settings: RegistryFetchSettings, options: { maxArtifactBytes: number; overrides?: Partial<RegistrySettings>; onRefused?: (event: unknown) => void }): RegistryConnectors {
  // The bucket from the settings; the sockets at least as many as the fetches the worker runs at once.
  const common = { maxArtifactBytes: options.maxArtifactBytes, ...settings.rate, concurrency: Math.max(8, settings.concurrency), ...options.overrides };
  const of = (registry: { url: string; token: string | null }): RegistrySettings => ({ url: registry.url, ...(registry.token === null ? {} : { token: registry.token }), ...common });
  const refused = options.onRefused === undefined ? {} : { onRefused: options.onRefused };
  const npm = createNpmRegistry(of(settings.npm), refused);
  const pypi = createPypiRegistry(of(settings.pypi), refused);
  return {
    npm,
    pypi,
    close() {
      npm.close();
      pypi.close();
    },
  };
}

export interface FetchWorkerLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CreateFetchWorkerOptions {
  db: Kysely<Database>;
  blobs: BlobStore;
  settings: RegistryFetchSettings;
  connectors: RegistryConnectors;
  /** VIGIL_ARTIFACT_LIMIT_BYTES: fetched bytes are held to the upload limit. */
  maxArtifactBytes: number;
  now?: () => number;
  logger?: FetchWorkerLogger;
  /** The waits between attempts to write a fetch's outcome (OUTCOME_WRITE_RETRY_MS; tests shorten them). */
  outcomeRetryDelaysMs?: readonly number[];
}

export interface FetchWorker {
  start(): void;
  /**
   * No more work: the fetches in hand are given back, due again at once and their interrupted
   * attempt not counted, so a restart (of this or another process) takes them without waiting for
   * a lease; an answer that still arrives is dropped. Resolves without waiting for the registry.
   * Closes nothing (the connectors are the caller's).
   */
  stop(): Promise<void>;
  /** Claims and runs due fetches until none is left; resolves to how many it ran. A call while one runs joins it. */
  drain(): Promise<number>;
  /** A fetch was just queued in this process: drain now instead of at the next poll. */
  nudge(): void;
}

/** The wait before attempt `attempts + 1` of a fetch the registry did not answer: doubling from the base, at most an hour. */
export function retryDelay(settings: Pick<RegistryFetchSettings, 'retryBaseMs'>, attempts: number): number {
  return Math.min(MAX_REGISTRY_RETRY_MS, settings.retryBaseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * The npm registry's provenance of a stored version (its attestations document), checked and kept
 * when it verifies (docs/package-facts.md, "Provenance of fetched packages"). Whatever happens here,
 * the stored artifact stands: a document that is not JSON, does not verify, or cannot be kept now is
 * logged, and the artifact reads `registry_provenance: absent`.
 */
async function keepOfferedProvenance(options: CreateFetchWorkerOptions, artifactId: number, purl: string, document: Buffer, sha512Hex: string, at: number): Promise<void> {
  try {
    const outcome = await keepRegistryProvenance(options.db, { artifactId, document: JSON.parse(document.toString('utf8')), sha512Hex, purl, accountId: REGISTRY_ACCOUNT_ID, now: at });
    if (outcome.kept) options.logger?.info({ purl, artifact: artifactId, subject: outcome.provenance.subject, source_repository: outcome.provenance.source_repository }, 'registry provenance verified and kept');
    else options.logger?.info({ purl, artifact: artifactId, reason: outcome.reason }, 'registry provenance not kept: it does not verify');
  } catch (error) {
    options.logger?.error({ err: error, purl, artifact: artifactId }, 'registry provenance not kept: it could not be checked');
  }
}

/** Fetches one claimed reference and stores it as a live artifact claimed by Vigil's registry account. */
async function runFetch(options: CreateFetchWorkerOptions, claim: ClaimedFetch, now: () => number): Promise<Outcome> {
  const { row } = claim;
  const retryOrFail = (reason: string): Outcome =>
    row.attempts >= options.settings.maxAttempts ? { state: 'failed', reason: `${reason} (gave up after ${row.attempts} attempts)` } : { state: 'retry', reason, at: now() + retryDelay(options.settings, row.attempts) };
  // A CLIENT span around the registry calls of one fetch (docs/operations.md, "Tracing").
  const result = await withSpan('registry fetch', SpanKind.CLIENT, () => ({ 'vigil.purl': row.purl, 'vigil.fetch.attempt': row.attempts }), async (span) => {
    const fetched = await fetchPackageRef(options.connectors, row.purl);
    span?.setAttribute('vigil.fetch.result', fetched.state);
    if (fetched.state === 'registry_unavailable') span?.setStatus({ code: SpanStatusCode.ERROR, message: fetched.detail });
    return fetched;
  });
  if (result.state === 'registry_unavailable') return retryOrFail(`registry_unavailable: ${result.detail}`);
  if (result.state !== 'fetched') return { state: 'failed', reason: `${result.state}: ${result.detail}` };
  const ref = parsePackageRef(row.purl);
  // A dist-tag names whatever version it points at today: only an exact version is claimed.
  if (result.version !== ref.version) return { state: 'failed', reason: `version_not_found: ${row.purl} names the dist-tag of ${result.version}, not a version` };
  try {
    await ensureRegistryAccount(options.db, now());
    const stored = await uploadArtifact(options.db, options.blobs, {
      track: result.track.track,
      ref,
      source: Readable.from([result.bytes]),
      mediaType: 'application/octet-stream',
      accountId: REGISTRY_ACCOUNT_ID,
      maxBytes: options.maxArtifactBytes,
      now: now(),
    });
    options.logger?.info({ purl: row.purl, artifact: Number(stored.artifact.id), track: result.track.track, created: stored.created }, 'registry fetch stored');
    if ('attestations' in result && result.attestations !== null) await keepOfferedProvenance(options, Number(stored.artifact.id), row.purl, result.attestations, result.sha512, now());
    return { state: 'stored', artifactId: Number(stored.artifact.id), track: result.track.track };
  } catch (error) {
    // Refused by the store (an archive that cannot be read, a checksum qualifier the bytes do not match): nothing was stored, and trying again changes nothing.
    if (error instanceof VigilError && error.status < 500) return { state: 'failed', reason: `refused: ${error.message}` };
    options.logger?.error({ err: error, purl: row.purl }, 'registry fetch: storing failed; retried');
    return retryOrFail(`storage_unavailable: ${(error as Error).message}`);
  }
}

/**
 * The registry fetch worker: claims due fetches (durably, in the database: any number of processes
 * may run one) and runs up to `settings.concurrency` of them at once, so one registry that hangs holds
 * up no other fetch. A fetch whose worker died is taken again when its lease (FETCH_LEASE_MS) runs out.
 */
export function createFetchWorker(options: CreateFetchWorkerOptions): FetchWorker {
  const now = options.now ?? Date.now;
  // Stopped from stop() to the next start(); its signal ends a wait before retrying an outcome write at once.
  const halt = createStopSwitch();
  const inHand = new Set<ClaimedFetch>();

  /** One lane: claims and runs due fetches one after another until none is due. */
  async function lane(): Promise<number> {
    let processed = 0;
    for (;;) {
      if (halt.stopped) break;
      const claim = await claimDueFetch(options.db, now());
      if (claim === undefined) break;
      processed += 1;
      inHand.add(claim);
      let writingOutcome = false;
      try {
        const outcome = await runFetch(options, claim, now);
        if (halt.stopped && !inHand.has(claim)) break; // given back by stop(): its outcome is dropped
        writingOutcome = true; // until recordOutcome resolves
        const kept = await recordOutcome(options.db, claim, outcome, now(), {
          retryDelaysMs: options.outcomeRetryDelaysMs ?? OUTCOME_WRITE_RETRY_MS,
          signal: halt.signal,
          onFailedAttempt: (error, attempt, retryInMs) => {
            if (halt.stopped) return;
            const fields = { err: error, purl: claim.row.purl, outcome: outcome.state, attempt };
            if (retryInMs === null) options.logger?.error(fields, 'registry fetch: its outcome could not be written; left running until its lease runs out');
            else options.logger?.error({ ...fields, retry_in_ms: retryInMs }, 'registry fetch: its outcome could not be written; retried');
          },
        });
        writingOutcome = false;
        if (kept) registryFetchAttempts.inc({ outcome: outcome.state });
        if (!kept) options.logger?.info({ purl: claim.row.purl }, 'registry fetch: lease lost to another worker; its outcome stands');
        else if (outcome.state !== 'stored') options.logger?.info({ purl: claim.row.purl, outcome: outcome.state, reason: outcome.reason }, 'registry fetch not stored');
      } catch (error) {
        // Left `running`: the lease runs out and the fetch is taken again, by this process or another.
        // (A failed outcome write was logged attempt by attempt.)
        if (!halt.stopped && !writingOutcome) options.logger?.error({ err: error, purl: claim.row.purl }, 'registry fetch failed unexpectedly');
      } finally {
        inHand.delete(claim);
      }
    }
    return processed;
  }

  async function drainOnce(): Promise<number> {
    const lanes = await Promise.all(Array.from({ length: Math.max(1, options.settings.concurrency) }, () => lane()));
    return lanes.reduce((a, b) => a + b, 0);
  }

  const { drain } = singleFlightDrain(drainOnce, () => halt.stopped);

  const logError = (error: unknown) => options.logger?.error({ err: error }, 'registry fetch worker: could not claim fetches');
  const loop = pollEvery(options.settings.pollMs, drain, logError);
  return {
    start() {
      if (loop.running) return;
      halt.start();
      loop.start();
    },
    async stop() {
      halt.stop();
      loop.stop();
      const held = [...inHand];
      inHand.clear();
      await Promise.all(
        held.map((claim) =>
          releaseFetch(options.db, claim, now()).catch((error: unknown) => {
            // Left `running`: its lease runs out and it is taken again then.
            options.logger?.error({ err: error, purl: claim.row.purl }, 'registry fetch: could not give back a fetch at stop');
          }),
        ),
      );
      if (held.length > 0) options.logger?.info({ fetches: held.map((c) => c.row.purl) }, 'registry fetch worker stopped: fetches in hand given back');
    },
    drain,
    nudge() {
      if (!loop.running) return;
      drain().catch(logError);
    },
  };
}

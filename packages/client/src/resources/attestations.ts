import { AttestationDetail, AttestationList, AttestationVerifyResult, DsseEnvelope, formatOffsetTimestamp, MetagraphSnapshot } from '@vigil/core';
import type { AttestationEnvelope, Verdict } from '@vigil/core';
import { createAttestationVerifier } from '@vigil/crypto';
import type { AttestationVerification } from '@vigil/crypto';
import type { Dated } from '../dates.js';
import { issuePath } from '../errors.js';
import type { PagePromise } from '../pagination.js';
import type { CallOptions, PageOptions, Transport } from '../transport.js';
import type { Network } from './public-reads.js';
import { call, paginate, segment } from './shared.js';

/** Filters of `attestations.list` (docs/customer-attestations.md); all optional, combined with AND. */
export interface AttestationListParams {
  /** An artifact id: `art_<n>` as every answer prints it, or the number `<n>` (also as a string). */
  artifact?: number | string;
  sha256?: string;
  canonical_hash?: string;
  validator?: string;
  miner?: string;
  round_id?: string;
  verdict?: Verdict;
  /** `recorded_at` ≥ since; a Date, or a timestamp with a zone offset. */
  since?: Date | string;
  /** `recorded_at` < until. */
  until?: Date | string;
}

function instant(value: Date | string | undefined): string | undefined {
  return value instanceof Date ? formatOffsetTimestamp(value) : value;
}

/** `art_42`, `'42'` or `42` as the query's `42`; anything else is sent as it is, for the server to refuse. */
function artifactNumber(value: number | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  return /^art_[1-9]\d{0,15}$/.test(text) ? text.slice('art_'.length) : text;
}

/** Where `attestations.verifier` reads its metagraph snapshot from. */
export type SnapshotSource = MetagraphSnapshot | string | URL | (() => unknown);

/** Offline verification of many envelopes against one snapshot (docs/client.md, "Offline verification"). */
export interface OfflineVerifier {
  /** The server's identity key (`GET /v1/server-identity`), read once when the verifier was made. */
  readonly serverHotkey: string;
  /** The snapshot every check uses, validated once. */
  readonly snapshot: MetagraphSnapshot;
  /** The three checks of one envelope (as `verifyAttestation` of @vigil/crypto), no network. */
  verify(envelope: unknown): AttestationVerification;
  verifyMany(envelopes: Iterable<unknown>): AttestationVerification[];
  /**
   * Reads a recorded attestation (`GET /v1/attestations/{canonical_hash}`) and checks its envelope
   * offline. A withheld envelope (free plan, findings signed) cannot be checked: `null`.
   */
  verifyRecorded(canonicalHash: string, options?: CallOptions): Promise<AttestationVerification | null>;
}

/** `/v1/attestations*` (docs/customer-attestations.md). */
export class Attestations {
  constructor(
    private readonly transport: Transport,
    private readonly network: Network,
  ) {}

  /** Recorded attestations, newest first (keyset pages). Scope `read`. */
  list(params: AttestationListParams = {}, options?: PageOptions): PagePromise<Dated<typeof AttestationList>['attestations'][number]> {
    const query = { ...params, artifact: artifactNumber(params.artifact), since: instant(params.since), until: instant(params.until) };
    return paginate(this.transport, { path: '/v1/attestations', query, schema: AttestationList }, (body) => body.attestations, options);
  }

  /** One attestation with its envelope as signed and the snapshot it was checked against. */
  get(canonicalHash: string, options?: CallOptions): Promise<Dated<typeof AttestationDetail>> {
    return call(this.transport, { method: 'GET', path: `/v1/attestations/${segment(canonicalHash, 'canonicalHash')}`, schema: AttestationDetail, repeatable: 'safe' }, options);
  }

  /**
   * The same answer with the attestation's transparency-log entry (`log_entry`) and its C2SP
   * tlog-proof (`log_proof`), both null when it has no entry (`?proof=true`; docs/log.md). Check the
   * proof offline with `verifyTlogProof` of `@vigil/tlog` and the log's pinned key.
   */
  getWithProof(canonicalHash: string, options?: CallOptions): Promise<Dated<typeof AttestationDetail>> {
    return call(
      this.transport,
      { method: 'GET', path: `/v1/attestations/${segment(canonicalHash, 'canonicalHash')}`, query: { proof: 'true' }, schema: AttestationDetail, repeatable: 'safe' },
      options,
    );
  }

  /**
   * The attestation as an in-toto Statement v1 (predicate type `https://vigil.dev/attestation/v1`,
   * the predicate the payload as signed) in a DSSE envelope signed by its validator's hotkey
   * (`GET /v1/attestations/{canonical_hash}/dsse`, scope `read`; docs/attestations.md). Check it
   * offline with `verifyAttestationDsse`, or with any DSSE implementation and the validator's key.
   */
  dsse(canonicalHash: string, options?: CallOptions): Promise<Dated<typeof DsseEnvelope>> {
    return call(this.transport, { method: 'GET', path: `/v1/attestations/${segment(canonicalHash, 'canonicalHash')}/dsse`, schema: DsseEnvelope, repeatable: 'safe', dates: false }, options);
  }

  /**
   * The server runs the three checks against its current snapshot (scope `verify`, paid plan).
   * Any envelope: the payload is checked as sent, fields beyond the schema included.
   */
  verify(envelope: AttestationEnvelope | { payload: Record<string, unknown>; canonical_hash: string; signature: string }, options?: CallOptions): Promise<Dated<typeof AttestationVerifyResult>> {
    return call(this.transport, { method: 'POST', path: '/v1/attestations/verify', body: { json: envelope }, schema: AttestationVerifyResult, repeatable: 'safe' }, options);
  }

  /**
   * Reads the server identity and the metagraph snapshot once, then checks any number of envelopes
   * offline with `@vigil/crypto` (the snapshot validated and indexed once).
   */
  async verifier(source: { snapshot: SnapshotSource }, options?: CallOptions): Promise<OfflineVerifier> {
    const [identity, raw] = await Promise.all([this.network.identity(options), this.#loadSnapshot(source?.snapshot, options)]);
    const parsed = MetagraphSnapshot.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TypeError(`snapshot: not a metagraph snapshot (${issue ? issuePath(issue.path) || '(root)' : ''}: ${issue?.message ?? 'invalid'})`);
    }
    // The raw snapshot, frozen: fields beyond the schema are kept, as verifyAttestation reads them.
    const snapshot = Object.freeze(raw as MetagraphSnapshot);
    const checker = createAttestationVerifier(snapshot);
    return {
      serverHotkey: identity.server_hotkey,
      snapshot,
      verify: (envelope) => checker.verify(envelope),
      verifyMany: (envelopes) => Array.from(envelopes, (envelope) => checker.verify(envelope)),
      verifyRecorded: async (canonicalHash, callOptions) => {
        const detail = await this.get(canonicalHash, callOptions);
        return detail.envelope === null ? null : checker.verify(detail.envelope);
      },
    };
  }

  async #loadSnapshot(source: SnapshotSource | undefined, options?: CallOptions): Promise<unknown> {
    if (source === undefined) throw new TypeError('snapshot: required (a snapshot object, a URL to fetch it from, or a function returning it)');
    if (typeof source === 'function') return source();
    if (typeof source === 'string' || source instanceof URL) {
      // Called unbound: a browser's fetch called as a method of another object throws "Illegal invocation".
      const fetch = this.transport.fetch;
      const response = await fetch(String(source), options?.signal ? { signal: options.signal } : {});
      if (!response.ok) throw new TypeError(`snapshot: ${String(source)} answered ${response.status}`);
      return response.json();
    }
    return source;
  }
}

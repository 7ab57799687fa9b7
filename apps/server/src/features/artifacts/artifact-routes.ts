import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import {
  ArtifactDetail,
  ArtifactFacts,
  DsseEnvelope,
  ArtifactIdParams,
  ArtifactProvenance,
  ArtifactLookupQuery,
  ArtifactLookupResult,
  ArtifactUploadFields,
  ArtifactUploadQuery,
  LogProofQuery,
  parsePackageRef,
  ProvenanceUpload,
  VerifyBatchRequest,
  VerifyBatchResult,
  VerifyRequest,
  VerifyResult,
  type ValidationIssue,
} from '@vigil/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { uncheckedChecksum } from './checksum-qualifier.js';
import type { BlobStore } from '../../platform/blobs/index.js';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { artifactFactsDetail, attachProvenance } from './provenance/artifact-provenance.js';
import { artifactDetail, artifactDetails, findArtifactById, findArtifacts, uploadArtifact } from './customer-artifacts.js';
import { referenceViewOf } from './references/reference-claims.js';
import { createVerifyCache } from './references/reference-lookup-cache.js';
import { readPage, sendPageHeaders } from '../../platform/http/pagination.js';
import '../../platform/http/route-config.js';
import { notFoundWhenInvalid } from '../../platform/http/zod-compilers.js';
import { principalOf } from '../accounts/index.js';
import type { ReferenceFetches } from './references/reference-fetches.js';
import type { TransparencyLog } from '../log/index.js';
import { getPublicKey } from '@vigil/crypto';
import { signedStatement, verificationSummaryStatement } from './verification-summary.js';

export interface ArtifactRoutesOptions {
  db: Kysely<Database>;
  blobs: BlobStore;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
  /** VIGIL_ARTIFACT_LIMIT_BYTES. */
  artifactLimitBytes: number;
  /** On-demand registry fetching of unseen references (features/registries); absent, none. */
  fetches?: ReferenceFetches;
  /** Where `?proof=true` reads the verdict's inclusion proof (docs/log.md). */
  log: Pick<TransparencyLog, 'proofFor'>;
  /** The server identity's ed25519 seed: signs verification summaries (`GET /v1/artifacts/{id}/vsa`). */
  serverKey: Uint8Array;
}

/** A provenance bundle is tens of kilobytes; the npm attestations document holds two. */
export const PROVENANCE_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Verify bodies hold references of at most MAX_PACKAGE_REF_LENGTH characters: room for the longest
 * even with every character written as a 6-byte `\uXXXX` escape, and no more (docs/artifacts.md).
 */
export const VERIFY_BODY_LIMIT_BYTES = 16 * 1024;
export const VERIFY_BATCH_BODY_LIMIT_BYTES = 1280 * 1024;

/** Form framing a multipart upload may add to the artifact: boundaries, part headers, the two fields. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

// An id that is not `art_<id>` names no artifact: the same 404 as an unknown one.
notFoundWhenInvalid.add(ArtifactIdParams, { code: 'artifact_unknown' });

const RAW = 'application/octet-stream';
const MULTIPART = 'multipart/form-data';

function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A refusal before the body is read: the connection closes rather than carrying an unread body. */
function refusal(issues: ValidationIssue[]): VigilError {
  return new VigilError('validation_error', { issues, headers: { connection: 'close' } });
}

function parseFields(where: 'query' | 'body', fields: Record<string, unknown>) {
  const parsed = ArtifactUploadFields.safeParse(fields);
  if (!parsed.success) {
    throw refusal(parsed.error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message })));
  }
  const ref = parsePackageRef(parsed.data.package);
  const unchecked = uncheckedChecksum(ref);
  if (unchecked !== undefined) throw refusal([{ path: `${where}.package`, message: unchecked }]);
  return { track: parsed.data.track, ref };
}

/**
 * A body that ended early or broke its framing: the client's fault, and it is no longer listening.
 * A socket error counts only while the body is still arriving: once all of it was received, an
 * ECONNRESET is the database's connection failing (502 through the error handler), not the client's.
 */
function isClientStreamError(request: FastifyRequest, error: unknown): boolean {
  if (error instanceof VigilError) return false;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  if (request.raw.readableAborted) return true;
  if (/^(Unexpected end of (form|multipart data)|Malformed part header|Multipart: Boundary not found)/.test(message)) return true;
  return !request.raw.complete && (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || /^aborted/.test(message));
}

/**
 * The customer artifact API (docs/artifacts.md): streaming uploads, reads and lookups, and
 * verification (paid plans). Encapsulated, so the raw and multipart body parsers apply here only.
 */
export const artifactRoutes: FastifyPluginAsyncZod<ArtifactRoutesOptions> = async (app, { db, blobs, clock, artifactLimitBytes, fetches, log, serverKey }) => {
  /** The newest verdict entry of an artifact and its tlog-proof; both null without a published verdict or a log. */
  async function verdictProof(bundleHash: string | null, hasVerdict: boolean): Promise<{ log_proof: string | null; log_entry: string | null }> {
    const logged = bundleHash === null || !hasVerdict ? null : await log.proofFor(`artifact:${bundleHash}`, clock());
    return { log_proof: logged?.proof ?? null, log_entry: logged?.entry ?? null };
  }
  const verifyCache = createVerifyCache(db, { now: clock, ...(fetches ? { fetches } : {}) });
  // The body reaches the handler as the request stream: it goes to the blob store, never into memory.
  app.addContentTypeParser(RAW, (_request, payload, done) => done(null, payload));
  await app.register(multipart, {
    // The blob store's own count refuses one byte past the limit; busboy's limit only backs it up.
    // One part more than a valid form has, so a part after the file reaches the handler and is refused
    // with 422 naming it, rather than busboy's own limit error.
    limits: { fileSize: artifactLimitBytes + 1, files: 2, fields: 3, fieldSize: 4096, parts: 4, headerPairs: 64 },
  });

  app.post(
    '/v1/artifacts',
    {
      schema: {
        summary: 'Upload an artifact (raw bytes with track and package in the query, or a multipart form)',
        querystring: ArtifactUploadQuery,
        response: { 200: ArtifactDetail, 201: ArtifactDetail },
      },
      config: { apiKey: { scope: 'upload' }, bodyLimitBytes: artifactLimitBytes + MULTIPART_OVERHEAD_BYTES },
      // Before the body parser: a body of another type is refused without being read.
      onRequest: async (request) => {
        const type = mediaTypeOf(request);
        if (type !== RAW && type !== MULTIPART) throw new VigilError('unsupported_media_type', { headers: { connection: 'close' } });
        const length = Number(request.headers['content-length']);
        if (type === RAW && length > artifactLimitBytes) throw new VigilError('body_too_large', { headers: { connection: 'close' } });
        // RFC 2046 caps a boundary at 70 characters; a longer one is broken framing (busboy would throw past 256).
        if (type === MULTIPART && !/;\s*boundary="?[^";]{1,70}"?\s*(?:;|$)/i.test(request.headers['content-type'] ?? '')) {
          throw new VigilError('malformed_request', { headers: { connection: 'close' } });
        }
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const base = { accountId: principal.accountId, maxBytes: artifactLimitBytes, now: clock() };
      let uploaded;
      try {
        if (mediaTypeOf(request) === RAW) {
          const { track, ref } = parseFields('query', request.query);
          uploaded = await uploadArtifact(db, blobs, { ...base, track, ref, source: request.body as Readable, mediaType: RAW });
        } else {
          if (Object.keys(request.query).length > 0) {
            throw refusal([{ path: 'query', message: 'a multipart upload takes track and package as form fields' }]);
          }
          uploaded = await uploadMultipart(request, base);
        }
      } catch (error) {
        if (isClientStreamError(request, error)) throw new VigilError('malformed_request', { headers: { connection: 'close' }, cause: error });
        throw error;
      }
      verifyCache.forget(uploaded.purl);
      const body = await artifactDetail(db, blobs, uploaded.artifact, { plan: principal.plan, view: referenceViewOf(principal), listing: uploaded.listing, size: uploaded.size });
      return reply.code(uploaded.created ? 201 : 200).send(body);
    },
  );

  /** Fields first (`track`, `package`), then the one `file` part, and nothing after it. */
  /** The artifact `{id}` names and its detail, as the calling account may read it (docs/artifacts.md, "Who can read an artifact"). */
  async function readableDetail(request: FastifyRequest, id: string) {
    const principal = principalOf(request);
    const view = referenceViewOf(principal);
    const artifact = await findArtifactById(db, id, view);
    return { artifact, detail: await artifactDetail(db, blobs, artifact, { plan: principal.plan, view }) };
  }

  async function uploadMultipart(request: FastifyRequest, base: { accountId: string; maxBytes: number; now: number }) {
    const parts = request.parts()[Symbol.asyncIterator]();
    const fields: Record<string, unknown> = {};
    for (;;) {
      const next = await parts.next();
      if (next.done) throw refusal([{ path: 'body.file', message: 'expected a file part named file' }]);
      const part = next.value;
      if (part.type === 'field') {
        if (part.fieldname in fields) throw refusal([{ path: `body.${part.fieldname}`, message: 'given more than once' }]);
        // busboy cuts a field at fieldSize and says so: a cut package reference would name another package.
        if (part.valueTruncated) throw refusal([{ path: `body.${part.fieldname}`, message: 'longer than 4096 bytes' }]);
        fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file') throw refusal([{ path: `body.${part.fieldname}`, message: 'the file part must be named file' }]);
      const missing = ['track', 'package'].filter((name) => !(name in fields));
      if (missing.length > 0) {
        throw refusal(missing.map((name) => ({ path: `body.${name}`, message: 'expected as a form field before the file part' })));
      }
      const { track, ref } = parseFields('body', fields);
      // Kept as the artifact's media_type: text, so no control character (a NUL cannot be stored).
      if (/\p{Cc}/u.test(part.mimetype)) {
        throw refusal([{ path: 'body.file', message: 'the Content-Type of the file part must not contain control characters' }]);
      }
      return uploadArtifact(db, blobs, {
        ...base,
        track,
        ref,
        source: part.file,
        mediaType: part.mimetype || RAW,
        beforeStore: async () => {
          // Checked before the bytes are stored: a part after the file refuses the whole upload.
          const after = await parts.next();
          if (!after.done) throw refusal([{ path: `body.${after.value.fieldname}`, message: 'nothing may follow the file part' }]);
        },
      });
    }
  }

  app.get(
    '/v1/artifacts/:id',
    {
      schema: {
        summary: 'An artifact: metadata, archive listing, published verdict, history, attestations; ?proof=true adds the verdict\'s transparency-log proof',
        params: ArtifactIdParams,
        querystring: LogProofQuery,
        response: { 200: ArtifactDetail },
      },
      config: { apiKey: { scope: 'read' } },
    },
    async (request) => {
      const { artifact, detail } = await readableDetail(request, request.params.id);
      if (request.query.proof !== 'true') return detail;
      // After the read: a verdict is logged in the transaction that publishes it.
      return { ...detail, ...(await verdictProof(artifact.bundle_hash, detail.verdict !== null)) };
    },
  );

  const serverHotkey = Buffer.from(getPublicKey(serverKey)).toString('hex');
  app.get(
    '/v1/artifacts/:id/vsa',
    {
      schema: {
        summary: "An artifact's published verdict as a SLSA Verification Summary Attestation: an in-toto Statement in a DSSE envelope signed by the server identity",
        params: ArtifactIdParams,
        response: { 200: DsseEnvelope },
      },
      config: { apiKey: { scope: 'read' } },
    },
    async (request) => signedStatement(verificationSummaryStatement((await readableDetail(request, request.params.id)).detail, serverHotkey), serverKey),
  );

  app.get(
    '/v1/artifacts/:id/facts',
    {
      schema: { summary: "An artifact's package facts: declared license, install scripts, registry provenance", params: ArtifactIdParams, response: { 200: ArtifactFacts } },
      config: { apiKey: { scope: 'read' } },
    },
    async (request) => artifactFactsDetail(db, blobs, request.params.id, referenceViewOf(principalOf(request)), clock()),
  );

  app.post(
    '/v1/artifacts/:id/provenance',
    {
      schema: {
        summary: 'Attach a Sigstore provenance bundle (or the npm attestations document) to an artifact you uploaded; verified offline',
        params: ArtifactIdParams,
        body: ProvenanceUpload,
        response: { 200: ArtifactProvenance },
      },
      config: { apiKey: { scope: 'upload' }, bodyLimitBytes: PROVENANCE_BODY_LIMIT_BYTES },
    },
    async (request) => attachProvenance(db, blobs, { artifactId: request.params.id, document: request.body, accountId: principalOf(request).accountId, now: clock() }),
  );

  app.get(
    '/v1/artifacts',
    {
      schema: { summary: 'Artifacts by purl or by content hash (paginated)', querystring: ArtifactLookupQuery, response: { 200: ArtifactLookupResult } },
      config: { apiKey: { scope: 'read' } },
    },
    async (request, reply) => {
      const page = readPage(request);
      const by = request.query.sha256 !== undefined ? { sha256: request.query.sha256 } : { purl: request.query.purl! };
      const principal = principalOf(request);
      const view = referenceViewOf(principal);
      const rows = await findArtifacts(db, by, { offset: (page.page - 1) * page.size, limit: page.size + 1 }, view);
      sendPageHeaders(reply, page, rows.length > page.size);
      return { artifacts: await artifactDetails(db, blobs, rows.slice(0, page.size), { plan: principal.plan, view }) };
    },
  );

  app.post(
    '/v1/artifacts/verify',
    {
      schema: {
        summary: "The published verdict of a package reference, or pending; ?proof=true adds the verdict's transparency-log proof",
        querystring: LogProofQuery,
        body: VerifyRequest,
        response: { 200: VerifyResult },
      },
      config: { apiKey: { scope: 'verify', plan: 'paid' }, bodyLimitBytes: VERIFY_BODY_LIMIT_BYTES },
    },
    async (request, reply) => {
      const view = referenceViewOf(principalOf(request));
      if (request.query.proof !== 'true') {
        // Sent as the cached JSON text: serialized through VerifyResult once per answer, not per request.
        return reply.type('application/json; charset=utf-8').send((await verifyCache.verifyJson(view, request.body.artifact)) as never);
      }
      const [result] = await verifyCache.verify(view, [request.body.artifact]);
      const decided = result!.state === 'decided' && result!.artifact_id !== null;
      const row = decided ? await db.selectFrom('artifacts').select('bundle_hash').where('id', '=', Number(result!.artifact_id!.slice('art_'.length))).executeTakeFirst() : undefined;
      return { ...result!, ...(await verdictProof(row?.bundle_hash ?? null, decided)) };
    },
  );

  app.post(
    '/v1/artifacts/verify/batch',
    {
      schema: { summary: 'Verify up to 100 package references, one result per reference in order', body: VerifyBatchRequest, response: { 200: VerifyBatchResult } },
      config: { apiKey: { scope: 'verify', plan: 'paid' }, bodyLimitBytes: VERIFY_BATCH_BODY_LIMIT_BYTES },
    },
    async (request) => ({ results: await verifyCache.verify(referenceViewOf(principalOf(request)), request.body.artifacts) }),
  );
};

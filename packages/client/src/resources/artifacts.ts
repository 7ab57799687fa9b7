import { ArtifactDetail, ArtifactFacts, ArtifactLookupResult, ArtifactProvenance, DsseEnvelope, VerifyBatchResult, VerifyResult } from '@vigil/core';
import type { ProvenanceUpload, Track } from '@vigil/core';
import type { Dated } from '../dates.js';
import type { PagePromise } from '../pagination.js';
import type { CallOptions, PageOptions, Transport } from '../transport.js';
import { call, paginate, segment } from './shared.js';

/** What `artifacts.upload` sends: bytes from any runtime (docs/client.md, "Uploads"). */
export type UploadBody = Blob | ReadableStream<Uint8Array> | Uint8Array | ArrayBuffer;

export interface ArtifactUpload {
  track: Track;
  /** A package reference: a purl (`pkg:npm/left-pad@1.3.0`) or the short form (`npm:left-pad@1.3.0`). */
  package: string;
  file: UploadBody;
}

/**
 * The bytes as a Blob: the server needs a Content-Length (411 otherwise) and a retry must send the
 * same bytes again, so a stream is read to the end first. A Blob (a browser File, or Node's
 * `openAsBlob` through `@vigil/client/node`) is sent as it is, read by fetch as it goes.
 */
async function asBlob(file: UploadBody): Promise<Blob> {
  if (typeof Blob !== 'undefined' && file instanceof Blob) return file;
  if (file instanceof ArrayBuffer) return new Blob([new Uint8Array(file)]);
  if (file instanceof Uint8Array) return new Blob([new Uint8Array(file)]);
  if (typeof ReadableStream !== 'undefined' && file instanceof ReadableStream) {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    const reader = file.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!(value instanceof Uint8Array)) throw new TypeError('upload.file: the stream must yield Uint8Array chunks');
      chunks.push(new Uint8Array(value));
    }
    return new Blob(chunks);
  }
  throw new TypeError('upload.file: expected a Blob, a ReadableStream of Uint8Array, a Uint8Array or an ArrayBuffer');
}

/** `/v1/artifacts*` (docs/artifacts.md, docs/package-facts.md). */
export class Artifacts {
  constructor(private readonly transport: Transport) {}

  /**
   * Uploads an artifact's bytes under a package reference (scope `upload`). Idempotent by content:
   * the same bytes answer the same artifact (`created` tells the two apart only on the wire: 201 vs 200).
   */
  async upload(upload: ArtifactUpload, options?: CallOptions): Promise<Dated<typeof ArtifactDetail>> {
    if (typeof upload !== 'object' || upload === null) throw new TypeError('upload: expected { track, package, file }');
    const blob = await asBlob(upload.file);
    return call(
      this.transport,
      {
        method: 'POST',
        path: '/v1/artifacts',
        query: { track: upload.track, package: upload.package },
        body: { blob, contentType: 'application/octet-stream' },
        schema: ArtifactDetail,
        repeatable: 'safe',
      },
      options,
    );
  }

  /** An artifact by id (`art_…`; scope `read`). */
  get(id: string, options?: CallOptions): Promise<Dated<typeof ArtifactDetail>> {
    return call(this.transport, { method: 'GET', path: `/v1/artifacts/${segment(id, 'id')}`, schema: ArtifactDetail, repeatable: 'safe' }, options);
  }

  /**
   * `GET /v1/artifacts/{id}?proof=true`: the artifact with `log_entry` and `log_proof`, its published
   * verdict's entry in the server's transparency log and the C2SP tlog-proof of it (both null without
   * a logged verdict). Check the entry against the answer's `verdict`, then the proof offline with
   * `verifyTlogProof` of `@vigil/tlog` and the log's pinned key (docs/log.md).
   */
  getWithProof(id: string, options?: CallOptions): Promise<Dated<typeof ArtifactDetail>> {
    return call(this.transport, { method: 'GET', path: `/v1/artifacts/${segment(id, 'id')}`, query: { proof: 'true' }, schema: ArtifactDetail, repeatable: 'safe' }, options);
  }

  /**
   * `GET /v1/artifacts/{id}/vsa`: the published verdict as a SLSA Verification Summary Attestation,
   * an in-toto Statement in a DSSE envelope signed by the server identity key (docs/artifacts.md).
   */
  vsa(id: string, options?: CallOptions): Promise<Dated<typeof DsseEnvelope>> {
    return call(this.transport, { method: 'GET', path: `/v1/artifacts/${segment(id, 'id')}/vsa`, schema: DsseEnvelope, repeatable: 'safe', dates: false }, options);
  }

  /** Every artifact uploaded under a package reference (paginated). */
  getByPurl(purl: string, options?: PageOptions): PagePromise<Dated<typeof ArtifactDetail>> {
    return paginate(this.transport, { path: '/v1/artifacts', query: { purl }, schema: ArtifactLookupResult }, (body) => body.artifacts, options);
  }

  /** Every artifact with a content hash, `sha256:<64 hex>` (paginated). */
  getByHash(sha256: string, options?: PageOptions): PagePromise<Dated<typeof ArtifactDetail>> {
    return paginate(this.transport, { path: '/v1/artifacts', query: { sha256 }, schema: ArtifactLookupResult }, (body) => body.artifacts, options);
  }

  /** Package facts: declared license, install scripts, registry provenance (scope `read`). */
  facts(id: string, options?: CallOptions): Promise<Dated<typeof ArtifactFacts>> {
    return call(this.transport, { method: 'GET', path: `/v1/artifacts/${segment(id, 'id')}/facts`, schema: ArtifactFacts, repeatable: 'safe' }, options);
  }

  /** Attaches a Sigstore bundle or npm attestations document, verified by the server (scope `upload`). */
  provenance(id: string, document: ProvenanceUpload, options?: CallOptions): Promise<Dated<typeof ArtifactProvenance>> {
    return call(
      this.transport,
      { method: 'POST', path: `/v1/artifacts/${segment(id, 'id')}/provenance`, body: { json: document }, schema: ArtifactProvenance, repeatable: 'safe' },
      options,
    );
  }

  /** The published verdict of a package reference, or pending (scope `verify`, paid plan). */
  verify(artifact: string, options?: CallOptions): Promise<Dated<typeof VerifyResult>> {
    return call(this.transport, { method: 'POST', path: '/v1/artifacts/verify', body: { json: { artifact } }, schema: VerifyResult, repeatable: 'safe' }, options);
  }

  /** `POST /v1/artifacts/verify?proof=true`: as `verify`, with the verdict's `log_entry` and `log_proof` (both null while pending). */
  verifyWithProof(artifact: string, options?: CallOptions): Promise<Dated<typeof VerifyResult>> {
    return call(
      this.transport,
      { method: 'POST', path: '/v1/artifacts/verify', query: { proof: 'true' }, body: { json: { artifact } }, schema: VerifyResult, repeatable: 'safe' },
      options,
    );
  }

  /** Up to 100 references, one result each, in order (scope `verify`, paid plan). */
  verifyBatch(artifacts: string[], options?: CallOptions): Promise<Dated<typeof VerifyBatchResult>> {
    return call(
      this.transport,
      { method: 'POST', path: '/v1/artifacts/verify/batch', body: { json: { artifacts } }, schema: VerifyBatchResult, repeatable: 'safe' },
      options,
    );
  }
}

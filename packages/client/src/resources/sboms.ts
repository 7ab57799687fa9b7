import { SBOM_VERDICT_HEADER, SbomVerification, Verdict } from '@vigil/core';
import * as z from 'zod';
import type { Dated } from '../dates.js';
import { VigilResponseError } from '../errors.js';
import type { CallOptions, Transport } from '../transport.js';

/** Options of `sboms.verify` and `sboms.verifyAs`, beside the call's own. */
export interface SbomVerifyOptions extends CallOptions {
  /** The organization's policy to apply (default: the built-in `default`). */
  policy?: string;
  /** SARIF only: the SBOM's path in the repository, written as each result's location (server default `sbom.json`). */
  sbomPath?: string;
}

/** A verification answered as a document of another format, with the verdict the answer's header carries. */
export interface SbomVerificationDocument {
  format: 'cyclonedx' | 'sarif';
  /** `X-Vigil-Verdict`: the verification's verdict. */
  verdict: Verdict;
  /** The CycloneDX 1.6 VEX document or SARIF 2.1.0 log, parsed, as the server sent it. */
  document: Record<string, unknown>;
}

const AnyDocument = z.record(z.string(), z.unknown());

/** `POST /v1/sboms/verify` (docs/sbom.md; scope `repositories`, paid plan). */
export class Sboms {
  constructor(private readonly transport: Transport) {}

  /** Verifies every npm and PyPI component of a CycloneDX 1.5/1.6 or SPDX 2.3 JSON SBOM (the parsed document) under a policy. */
  async verify(sbom: Record<string, unknown>, options: Omit<SbomVerifyOptions, 'sbomPath'> = {}): Promise<Dated<typeof SbomVerification>> {
    const { policy, ...call } = options;
    const answer = await this.transport.request(
      { method: 'POST', path: '/v1/sboms/verify', query: { format: 'json', policy }, body: { json: sbom }, schema: SbomVerification, repeatable: 'safe' },
      call,
    );
    return answer.data;
  }

  /** The same verification answered as a CycloneDX 1.6 VEX document or a SARIF 2.1.0 log. */
  async verifyAs(sbom: Record<string, unknown>, format: 'cyclonedx' | 'sarif', options: SbomVerifyOptions = {}): Promise<SbomVerificationDocument> {
    if (format !== 'cyclonedx' && format !== 'sarif') throw new TypeError(`format: expected cyclonedx or sarif, got ${JSON.stringify(format)}`);
    const { policy, sbomPath, ...call } = options;
    const answer = await this.transport.request(
      {
        method: 'POST',
        path: '/v1/sboms/verify',
        query: { format, policy, sbom_path: sbomPath },
        body: { json: sbom },
        schema: AnyDocument,
        repeatable: 'safe',
        dates: false,
      },
      call,
    );
    const verdict = Verdict.safeParse(answer.headers.get(SBOM_VERDICT_HEADER));
    if (!verdict.success) {
      throw new VigilResponseError(`headers.${SBOM_VERDICT_HEADER}`, `expected ALLOW, WARN or BLOCK, got ${JSON.stringify(answer.headers.get(SBOM_VERDICT_HEADER))}`, {
        endpoint: 'POST /v1/sboms/verify',
        status: 200,
      });
    }
    return { format, verdict: verdict.data, document: answer.data as Record<string, unknown> };
  }
}

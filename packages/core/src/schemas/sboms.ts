import * as z from 'zod';
import { Verdict } from '../enums.js';
import { OffsetTimestamp } from '../timestamps.js';
import { VerdictBucketCounts, VerifiedDependency } from './repositories.js';

// SBOM verification (docs/sbom.md): a CycloneDX 1.5/1.6 or SPDX 2.3 JSON document, every component
// with a purl verified as `POST /v1/repositories/verify` verifies a lockfile's packages.

/** What `POST /v1/sboms/verify` answers: this JSON, a CycloneDX 1.6 VEX document, or SARIF 2.1.0. */
export const SBOM_OUTPUT_FORMATS = ['json', 'cyclonedx', 'sarif'] as const;
export const SbomOutputFormat = z.enum(SBOM_OUTPUT_FORMATS);
export type SbomOutputFormat = z.infer<typeof SbomOutputFormat>;

/** The media type of each output format (the answer's Content-Type). */
export const SBOM_OUTPUT_MEDIA_TYPES: Readonly<Record<SbomOutputFormat, string>> = {
  json: 'application/json; charset=utf-8',
  // charset given: fastify would add it to a JSON type itself (and quote `version`'s value doing so).
  cyclonedx: 'application/vnd.cyclonedx+json; version=1.6; charset=utf-8',
  sarif: 'application/sarif+json; charset=utf-8',
};

/** The SBOM specifications and versions read. */
export const SBOM_SPECS = ['cyclonedx', 'spdx'] as const;
export const SbomSpec = z.enum(SBOM_SPECS);
export type SbomSpec = z.infer<typeof SbomSpec>;
export const CYCLONEDX_VERSIONS_READ = ['1.5', '1.6'] as const;
export const SPDX_VERSIONS_READ = ['SPDX-2.3'] as const;

/**
 * Components one SBOM may list (nested ones counted): the bound of one lockfile's entries, so an
 * SBOM costs what the lockfiles it was made from would. Above it: 422 `sbom_too_large`.
 */
export const MAX_SBOM_COMPONENTS = 20_000;

/** The query of `POST /v1/sboms/verify`; the body is the SBOM document itself. */
export const SbomVerifyQuery = z.strictObject({
  /** The answer's form; default `json`. */
  format: SbomOutputFormat.default('json'),
  /** The organization's policy to apply; absent: the built-in `default` (a personal key always gets it). */
  policy: z.string().min(1).max(100).optional(),
  /** The SBOM's path in the repository, written as each SARIF result's location (format=sarif); absent: `sbom.json`. */
  sbom_path: z.string().min(1).max(1024).optional(),
});
export type SbomVerifyQuery = z.infer<typeof SbomVerifyQuery>;

/** The posted SBOM: any JSON object; what it must hold is checked by the SBOM reader (422 `sbom_*`). */
export const SbomDocument = z.looseObject({});
export type SbomDocument = z.infer<typeof SbomDocument>;

/** The document verified, as it describes itself. */
export const SbomDocumentInfo = z.object({
  spec: SbomSpec,
  /** `1.5` or `1.6` (CycloneDX `specVersion`), `2.3` (SPDX `spdxVersion` `SPDX-2.3`). */
  spec_version: z.string(),
  /** The subject: CycloneDX `metadata.component.name`, SPDX the described package's `name` (else the document's `name`); null when absent. */
  name: z.string().nullable(),
  /** The subject's version (CycloneDX `metadata.component.version`, SPDX `versionInfo`); null when absent. */
  version: z.string().nullable(),
  /** CycloneDX `serialNumber`, SPDX `documentNamespace`; null when absent. */
  serial_number: z.string().nullable(),
});
export type SbomDocumentInfo = z.infer<typeof SbomDocumentInfo>;

/** One package the SBOM's components name (once per purl), with its verdict under the policy. */
export const SbomDependency = VerifiedDependency.omit({ files: true }).extend({
  /** The components that name it: their `bom-ref` (CycloneDX) or `SPDXID` (SPDX), else their place in the document (`components[3]`). */
  components: z.array(z.string()),
});
export type SbomDependency = z.infer<typeof SbomDependency>;

/** Why a component was not verified. */
export const SBOM_UNVERIFIED_REASONS = ['no_purl', 'unsupported_type', 'no_version', 'invalid_purl'] as const;
export const SbomUnverifiedReason = z.enum(SBOM_UNVERIFIED_REASONS);

/** A component not verified, and why: never an error, never counted as allowed. */
export const SbomUnverifiedComponent = z.object({
  /** `bom-ref` or `SPDXID`, else the component's place in the document. */
  ref: z.string(),
  name: z.string().nullable(),
  version: z.string().nullable(),
  /** The purl as the SBOM gives it; null for `no_purl`. */
  purl: z.string().nullable(),
  reason: SbomUnverifiedReason,
  /** The reason as a sentence, e.g. `purl type maven is not verified (Vigil verifies npm and pypi)`. */
  detail: z.string(),
});
export type SbomUnverifiedComponent = z.infer<typeof SbomUnverifiedComponent>;

/** Every component in exactly one of `verified`, `without_purl`, `unsupported`; every dependency in one verdict bucket. */
export const SbomVerificationSummary = z.object({
  /** Components listed (nested ones included; the SBOM's subject excluded). */
  components: z.int().min(0),
  /** Of those, with a purl Vigil verifies. */
  verified: z.int().min(0),
  /** Of those, without a purl. */
  without_purl: z.int().min(0),
  /** Of those, with a purl Vigil does not verify (another type, no version, unparseable). */
  unsupported: z.int().min(0),
  // Then the packages by verdict, as a lockfile verification counts them; `direct` where the SBOM
  // records its dependency graph.
  ...VerdictBucketCounts.shape,
});
export type SbomVerificationSummary = z.infer<typeof SbomVerificationSummary>;

/** The answer of `POST /v1/sboms/verify` with `format=json`. */
export const SbomVerification = z.object({
  sbom: SbomDocumentInfo,
  /** The policy applied. */
  policy: z.object({ id: z.string(), name: z.string(), version: z.int().min(1), builtin: z.boolean() }),
  /** BLOCK when any dependency is blocked; else WARN when any is warned or pending; else ALLOW. */
  verdict: Verdict,
  /** False while any dependency is pending. */
  complete: z.boolean(),
  summary: SbomVerificationSummary,
  /** Blocked first, then warned, pending, allowed; by purl within each. */
  dependencies: z.array(SbomDependency),
  /** Components not verified, in document order. */
  unverified: z.array(SbomUnverifiedComponent),
  verified_at: OffsetTimestamp,
});
export type SbomVerification = z.infer<typeof SbomVerification>;

/** The header every answer of `POST /v1/sboms/verify` carries, whatever its format: the verdict. */
export const SBOM_VERDICT_HEADER = 'x-vigil-verdict';

import {
  DEFAULT_POLICY_NAME,
  formatOffsetTimestamp,
  type RepositoryVerification,
  type VerificationSummary,
  type Verdict,
  type VerifiedDependency,
  type VerifiedLockfile,
} from '@vigil/core';
import type { Kysely } from 'kysely';
import { chunkRows } from '../../platform/db/chunk-rows.js';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { lockfileFormatOf, type ParsedLockfile } from '@vigil/lockfiles';
import type { PolicyInputSources } from '../policies/index.js';
import type { KeyPrincipal } from '../accounts/index.js';
import { parseLockfileCached } from './parsed-lockfile-cache.js';
import { policyForEvaluation } from '../policies/index.js';
import { evaluatePackages, type PolicyPackage } from '../policies/index.js';
import { countedClaims, referenceViewOf, TRUSTED_CLAIMS_ONLY, type ReferenceFetches } from '../artifacts/index.js';

export interface LockfileText {
  path: string;
  content: string;
}

export interface RepositoryVerificationDeps {
  db: Kysely<Database>;
  sources: PolicyInputSources;
  /** On-demand registry fetching of unseen references (features/registries); absent, none. */
  fetches?: ReferenceFetches;
}

export interface VerifyLockfilesInput {
  /** Whose policies apply: an organization's named policy, a personal account always the built-in default. */
  principal: Pick<KeyPrincipal, 'accountId' | 'accountKind' | 'trusted'>;
  /** The policy name; null: the built-in default. */
  policy: string | null;
  lockfiles: readonly LockfileText[];
  /**
   * `refuse`: a file that cannot be read refuses the whole request (422 naming file and line): posted
   * lockfiles. `report`: it is listed with its error and the verification is incomplete: a push,
   * where one broken file (a test fixture) must not hide what the others install.
   */
  unreadable: 'refuse' | 'report';
  repository: { id: string; ref: string | null; commit: string | null } | null;
  now: number;
}

/** A package Vigil holds no bytes for, to be recorded in package_requests. */
export interface RequestedPackage {
  purl: string;
  ecosystem: string;
  name: string;
  version: string;
}

export interface LockfileVerification {
  /** The answer (`id` and `changes` are filled in when a push's verification is stored). */
  result: RepositoryVerification;
  requested: RequestedPackage[];
}

const UPPER: Record<'allow' | 'warn' | 'block', Verdict> = { allow: 'ALLOW', warn: 'WARN', block: 'BLOCK' };

/** How a dependency counts: a pending one is never allowed (compared as WARN), a blocked one is blocked whatever its state. */
export function effectiveVerdict(dependency: Pick<VerifiedDependency, 'state' | 'verdict'>): Verdict {
  if (dependency.verdict === 'BLOCK') return 'BLOCK';
  return dependency.state === 'pending' ? 'WARN' : dependency.verdict;
}

const BUCKET_ORDER = { blocked: 0, warned: 1, pending: 2, allowed: 3 } as const;
export type Bucket = keyof typeof BUCKET_ORDER;

export function bucketOf(dependency: Pick<VerifiedDependency, 'state' | 'verdict'>): Bucket {
  if (dependency.verdict === 'BLOCK') return 'blocked';
  if (dependency.state === 'pending') return 'pending';
  return dependency.verdict === 'WARN' ? 'warned' : 'allowed';
}

interface Merged {
  coordinates: PolicyPackage['coordinates'];
  direct: boolean | null;
  dev: boolean | null;
  files: string[];
}

/** A package listed by several files: direct if any says so; development-only only if every file says so. */
function mergeFlag(current: boolean | null, next: boolean | null, any: boolean): boolean | null {
  if (current === null) return next;
  if (next === null) return current;
  return any ? current || next : current && next;
}

/**
 * Verifies what lockfiles install: each file parsed (@vigil/lockfiles), the packages merged across files
 * by purl, then evaluated under the policy in one batch (features/policies/evaluate-packages.ts: one
 * verification query set, one advisory lookup and one facts lookup for all of them, however many).
 * Nothing is written here: the caller records the requested packages (and, for a push, the result)
 * in its own transaction.
 */
export async function verifyLockfiles(deps: RepositoryVerificationDeps, input: VerifyLockfilesInput): Promise<LockfileVerification> {
  const files: VerifiedLockfile[] = [];
  const parsedFiles: ParsedLockfile[] = [];
  for (const file of input.lockfiles) {
    let parsed: ParsedLockfile;
    try {
      parsed = parseLockfileCached(file);
    } catch (error) {
      if (input.unreadable === 'refuse' || !(error instanceof VigilError) || error.status >= 500) throw error;
      files.push({
        path: file.path,
        format: lockfileFormatOf(file.path, file.content) ?? 'unknown',
        format_version: null,
        packages: 0,
        direct: 0,
        dev: 0,
        skipped: [],
        error: error.detail,
      });
      continue;
    }
    parsedFiles.push(parsed);
    files.push({
      path: parsed.path,
      format: parsed.format,
      format_version: parsed.format_version,
      packages: parsed.packages.length,
      direct: parsed.direct_count,
      dev: parsed.dev_count,
      skipped: parsed.skipped,
      error: null,
    });
  }
  // The policy is resolved before anything is evaluated: an unknown name is refused whatever the files hold.
  const policy = await policyForEvaluation(deps.db, input.principal, input.policy ?? DEFAULT_POLICY_NAME);

  const merged = new Map<string, Merged>();
  for (const parsed of parsedFiles) {
    for (const pkg of parsed.packages) {
      const known = merged.get(pkg.purl);
      if (known === undefined) {
        merged.set(pkg.purl, {
          coordinates: { ecosystem: pkg.ecosystem, name: pkg.name, version: pkg.version, purl: pkg.purl },
          direct: pkg.direct,
          dev: pkg.dev,
          files: [parsed.path],
        });
        continue;
      }
      known.direct = mergeFlag(known.direct, pkg.direct, true);
      known.dev = mergeFlag(known.dev, pkg.dev, false);
      if (!known.files.includes(parsed.path)) known.files.push(parsed.path);
    }
  }
  const packages = [...merged.values()];
  const { dependencies: verdicts, requested } = await verifyDependencies(deps, policy, packages, input);
  const dependencies: VerifiedDependency[] = verdicts.map((verdict, index) => withFiles(verdict, packages[index]!.files));
  sortDependencies(dependencies);

  const summary: VerificationSummary = {
    packages: dependencies.length,
    direct: dependencies.filter((d) => d.direct === true).length,
    allowed: 0,
    warned: 0,
    blocked: 0,
    pending: 0,
    skipped: files.reduce((n, f) => n + f.skipped.length, 0),
    unreadable_files: files.filter((f) => f.error !== null).length,
  };
  for (const dependency of dependencies) summary[bucketOf(dependency)] += 1;
  const complete = summary.pending === 0 && summary.unreadable_files === 0;
  const verdict: Verdict = summary.blocked > 0 ? 'BLOCK' : summary.warned > 0 || !complete ? 'WARN' : 'ALLOW';
  return {
    result: {
      id: null,
      repository: input.repository?.id ?? null,
      ref: input.repository?.ref ?? null,
      commit: input.repository?.commit ?? null,
      policy: { id: policy.id, name: policy.name, version: policy.version, builtin: policy.builtin },
      verdict,
      complete,
      summary,
      files,
      dependencies,
      changes: null,
      verified_at: formatOffsetTimestamp(input.now),
    },
    requested,
  };
}

/** A package to verify, whatever listed it (a lockfile, an SBOM's component). */
export interface DependencyToVerify {
  coordinates: PolicyPackage['coordinates'];
  direct: boolean | null;
  dev: boolean | null;
}

/** A dependency's verdict under the policy, before saying where it was listed (`files`, `components`). */
export type DependencyVerdict = Omit<VerifiedDependency, 'files'>;

export type EvaluationPolicy = Awaited<ReturnType<typeof policyForEvaluation>>;

/** The dependency with `files` placed where the schema's field order puts it (after `dev`). */
function withFiles(verdict: DependencyVerdict, files: string[]): VerifiedDependency {
  const { purl, ecosystem, name, version, direct, dev, ...rest } = verdict;
  return { purl, ecosystem, name, version, direct, dev, files, ...rest };
}

/**
 * Evaluates packages under an already resolved policy in one batch (features/policies/evaluate-packages.ts:
 * one verification query set, one advisory lookup and one facts lookup for all of them, however many),
 * in the order given. What a pending package without bytes Vigil holds is returned in `requested`,
 * for the caller to record in its own transaction. Lockfile and SBOM verification share it, so both
 * answer a package the same way.
 */
export async function verifyDependencies(
  deps: RepositoryVerificationDeps,
  policy: EvaluationPolicy,
  packages: readonly DependencyToVerify[],
  input: Pick<VerifyLockfilesInput, 'principal' | 'now'>,
): Promise<{ dependencies: DependencyVerdict[]; requested: RequestedPackage[] }> {
  const evaluation = await evaluatePackages(
    deps,
    policy,
    packages.map((p) => ({ coordinates: p.coordinates, direct: p.direct, dev: p.dev })),
    // The verdicts come from the account's own and trusted package references (docs/artifacts.md).
    { now: input.now, view: referenceViewOf(input.principal) },
  );
  const requested: RequestedPackage[] = [];
  const dependencies = packages.map((pkg, index): DependencyVerdict => {
    const evaluated = evaluation.packages[index]!;
    const verification = evaluated.verification;
    const pending = evaluated.state === 'pending';
    if (pending && !verification.queued) {
      requested.push({ purl: pkg.coordinates.purl, ecosystem: pkg.coordinates.ecosystem, name: pkg.coordinates.name, version: pkg.coordinates.version });
    }
    return {
      purl: pkg.coordinates.purl,
      ecosystem: pkg.coordinates.ecosystem,
      name: pkg.coordinates.name,
      version: pkg.coordinates.version,
      direct: pkg.direct,
      dev: pkg.dev,
      state: evaluated.state,
      queued: pending ? (verification.queued ? 'evaluating' : 'requested') : null,
      verdict: UPPER[evaluated.verdict],
      published_verdict: verification.verdict,
      failed: evaluated.failed,
      warnings: evaluated.warnings,
      ...(pending && verification.fetch !== undefined ? { fetch: verification.fetch } : {}),
    };
  });
  return { dependencies, requested };
}

/** Blocked first, then warned, pending, allowed; by purl (byte order) within each. In place. */
export function sortDependencies<T extends Pick<VerifiedDependency, 'state' | 'verdict' | 'purl'>>(dependencies: T[]): T[] {
  return dependencies.sort((a, b) => BUCKET_ORDER[bucketOf(a)] - BUCKET_ORDER[bucketOf(b)] || (a.purl < b.purl ? -1 : a.purl > b.purl ? 1 : 0));
}

/**
 * Records packages Vigil holds no bytes for (docs/repositories.md, "Pending dependencies"): one row
 * per purl, counting how often verifications asked for it. Batched: a lockfile of 2,000 unseen
 * packages is a few statements, not 2,000.
 */
export async function recordPackageRequests(db: Kysely<Database>, packages: readonly RequestedPackage[], accountId: string, now: number): Promise<void> {
  const unique = [...new Map(packages.map((p) => [p.purl, p])).values()];
  for (const chunk of chunkRows(unique, 8)) {
    await db
      .insertInto('package_requests')
      .values(
        chunk.map((p) => ({
          purl: p.purl,
          ecosystem: p.ecosystem,
          name: p.name,
          version: p.version === '' ? null : p.version,
          first_requested_by: accountId,
          first_requested_at: now,
          last_requested_at: now,
          request_count: 1,
        })),
      )
      .onConflict((oc) =>
        oc.column('purl').doUpdateSet((eb) => ({
          last_requested_at: eb.ref('excluded.last_requested_at'),
          request_count: eb('package_requests.request_count', '+', 1),
        })),
      )
      .execute();
  }
}

export interface PackageRequestRow {
  purl: string;
  ecosystem: string;
  name: string;
  version: string | null;
  request_count: number;
  first_requested_at: number;
  last_requested_at: number;
}

/**
 * Requested packages still without trusted bytes (no upload by a trusted account names their purl:
 * another account's upload answers for that account only), most requested first: the work list of
 * the operator, who feeds Vigil artifacts. A page (plus one row to tell whether more exist).
 */
export async function listOpenPackageRequests(db: Kysely<Database>, page: { offset: number; limit: number }): Promise<PackageRequestRow[]> {
  const rows = await db
    .selectFrom('package_requests as r')
    .select(['r.purl', 'r.ecosystem', 'r.name', 'r.version', 'r.request_count', 'r.first_requested_at', 'r.last_requested_at'])
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('artifact_packages').select('artifact_packages.purl').whereRef('artifact_packages.purl', '=', 'r.purl').where(countedClaims(TRUSTED_CLAIMS_ONLY)))),
    )
    .orderBy('r.request_count', 'desc')
    .orderBy('r.purl')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    request_count: Number(r.request_count),
    first_requested_at: Number(r.first_requested_at),
    last_requested_at: Number(r.last_requested_at),
  }));
}

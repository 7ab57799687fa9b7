import { DEFAULT_POLICY_NAME, formatOffsetTimestamp, type SbomDependency, type SbomDocument, type SbomUnverifiedComponent, type SbomVerification, type SbomVerificationSummary, type Verdict } from '@vigil/core';
import { inTransaction } from '../../platform/db/transaction.js';
import type { KeyPrincipal } from '../accounts/index.js';
import { policyForEvaluation } from '../policies/index.js';
import { bucketOf, recordPackageRequests, sortDependencies, verifyDependencies, type DependencyToVerify, type RepositoryVerificationDeps } from '../repositories/index.js';
import { mergeDev, mergeDirect } from './merge-flags.js';
import { classifyPurl } from './sbom-component-purl.js';
import { readSbom } from './read-sbom.js';

interface MergedComponent extends DependencyToVerify {
  components: string[];
}

/**
 * `POST /v1/sboms/verify`: every component of the SBOM whose purl names an npm or PyPI package at a
 * version is verified under the policy exactly as a lockfile's package is (the repositories
 * feature's verifyDependencies: the same verdicts, pending states, registry fetches and package
 * requests); the other components are listed in `unverified`, each with its reason. Nothing is
 * stored but the requests for packages Vigil holds no bytes for.
 */
export async function verifySbom(
  deps: RepositoryVerificationDeps,
  principal: Pick<KeyPrincipal, 'accountId' | 'accountKind' | 'trusted'>,
  document: SbomDocument,
  options: { policy: string | null; now: number },
): Promise<SbomVerification> {
  // The document is read before the policy is resolved: a malformed SBOM is refused whatever the policy.
  const sbom = readSbom(document);
  const policy = await policyForEvaluation(deps.db, principal, options.policy ?? DEFAULT_POLICY_NAME);

  const merged = new Map<string, MergedComponent>();
  const unverified: SbomUnverifiedComponent[] = [];
  let verifiedComponents = 0;
  for (const component of sbom.components) {
    const base = { ref: component.ref, name: component.name, version: component.version, purl: component.purl };
    if (component.purl === null) {
      unverified.push({ ...base, reason: 'no_purl', detail: 'the component has no purl' });
      continue;
    }
    const classified = classifyPurl(component.purl);
    if ('unverified' in classified) {
      unverified.push({ ...base, ...classified.unverified });
      continue;
    }
    verifiedComponents += 1;
    const coordinates = classified.verified;
    const known = merged.get(coordinates.purl);
    if (known === undefined) {
      merged.set(coordinates.purl, { coordinates, direct: component.direct, dev: component.dev, components: [component.ref] });
      continue;
    }
    known.direct = mergeDirect(known.direct, component.direct);
    known.dev = mergeDev(known.dev, component.dev);
    if (!known.components.includes(component.ref)) known.components.push(component.ref);
  }

  const packages = [...merged.values()];
  const { dependencies: verdicts, requested } = await verifyDependencies(deps, policy, packages, { principal, now: options.now });
  const dependencies: SbomDependency[] = sortDependencies(verdicts.map((verdict, index) => ({ ...verdict, components: packages[index]!.components })));

  const summary: SbomVerificationSummary = {
    components: sbom.components.length,
    verified: verifiedComponents,
    without_purl: unverified.filter((u) => u.reason === 'no_purl').length,
    unsupported: unverified.filter((u) => u.reason !== 'no_purl').length,
    packages: dependencies.length,
    direct: dependencies.filter((d) => d.direct === true).length,
    allowed: 0,
    warned: 0,
    blocked: 0,
    pending: 0,
  };
  for (const dependency of dependencies) summary[bucketOf(dependency)] += 1;
  const complete = summary.pending === 0;
  const verdict: Verdict = summary.blocked > 0 ? 'BLOCK' : summary.warned > 0 || !complete ? 'WARN' : 'ALLOW';

  await inTransaction(deps.db, (trx) => recordPackageRequests(trx, requested, principal.accountId, options.now));
  return {
    sbom: sbom.info,
    policy: { id: policy.id, name: policy.name, version: policy.version, builtin: policy.builtin },
    verdict,
    complete,
    summary,
    dependencies,
    unverified,
    verified_at: formatOffsetTimestamp(options.now),
  };
}

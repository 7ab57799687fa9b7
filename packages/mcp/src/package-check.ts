import type { Dated } from '@vigil/client';
import { formatOffsetTimestamp, PackageRefError, parsePackageRef, type PackageRef, type Verdict, type VerifyResult } from '@vigil/core';
import type { Advice, PackageCheck } from './schemas.js';
import { ToolInputError } from './tool-result.js';

/** What an agent should do with a verdict (docs/mcp.md, "Advice"); no verdict is never `proceed`. */
export function adviceOf(verdict: Verdict | null): Advice {
  if (verdict === 'ALLOW') return 'proceed';
  if (verdict === 'WARN') return 'review';
  if (verdict === 'BLOCK') return 'do_not_install';
  return 'unknown';
}

/** A UTF-16 surrogate without its pair. */
const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A package reference checked as the server checks it (`parsePackageRef` of @vigil/core), so a
 * malformed one is a tool error naming the argument before anything is sent.
 */
export function checkReference(argument: string, value: string): string {
  // A lone surrogate cannot be encoded (UTF-8, a URL): said here rather than failing in the request.
  const lone = LONE_SURROGATE_RE.exec(value);
  if (lone) throw new ToolInputError(`${argument}: contains a lone surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()} at index ${lone.index}), which cannot be encoded: expected pkg:<type>/<name>[@version] or <type>:<name>[@version] in well-formed Unicode`);
  // The purl library drops some of them (`pkg:npm/a@1%00` parses as `pkg:npm/a@1`), so the text is checked as given.
  const control = CONTROL_RE.exec(value);
  if (control) throw new ToolInputError(`${argument}: contains a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at index ${control.index}): ${EXPECTED_REF}`);
  let ref: PackageRef;
  try {
    ref = parsePackageRef(value);
  } catch (err) {
    if (err instanceof PackageRefError) throw new ToolInputError(`${argument}: ${err.message.replace(/^input: /, '')}`);
    throw err;
  }
  const npmProblem = ref.type === 'npm' ? npmNameProblem(ref) : null;
  if (npmProblem) throw new ToolInputError(`${argument}: ${JSON.stringify(ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name)} is not an npm package name (${npmProblem}): expected pkg:npm/[@scope/]name[@version] or npm:[@scope/]name[@version]`);
  return value;
}

const EXPECTED_REF = 'expected pkg:<type>/<name>[@version] or <type>:<name>[@version]';

/** C0 and C1 controls and DEL but the whitespace ones (@vigil/core refuses those by name): no registry names a package or version with one. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_RE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/;

/**
 * Why an npm reference cannot name an npm package (the registry's name rules, as npm's
 * validate-npm-package-name has them): a namespace is one `@scope`, and neither it nor the name
 * starts with "." or "_", so `pkg:npm/../../etc/passwd@1.0.0` is refused here, not looked up.
 */
function npmNameProblem(ref: PackageRef): string | null {
  if (ref.namespace !== null && !/^@[^./_@][^/]*$/.test(ref.namespace)) return 'a namespace is one @scope, not starting with "." or "_"';
  if (/^[._]/.test(ref.name)) return 'a name cannot start with "." or "_"';
  return null;
}

const stamp = (value: Date | null): string | null => (value === null ? null : formatOffsetTimestamp(value));

/** A verification as the tools answer it: the wire's field names and timestamps, plus `advice`. */
export function packageCheck(asked: string, result: Dated<typeof VerifyResult>): PackageCheck {
  const verdict = result.state === 'decided' ? result.verdict : null;
  return {
    package: asked,
    artifact: result.artifact,
    state: result.state,
    verdict,
    advice: adviceOf(verdict),
    risk_score: result.risk_score,
    decided_at: stamp(result.decided_at),
    artifact_id: result.artifact_id,
    queued: result.queued,
    findings_summary: result.findings_summary,
    attestations: result.attestations.length,
    fetch: result.fetch ? { state: result.fetch.state, reason: result.fetch.reason, expected_by: stamp(result.fetch.expected_by) } : null,
  };
}

/** Why a pending package has no verdict yet, in words. */
export function pendingWhy(check: PackageCheck): string {
  if (check.fetch?.state === 'failed') return `Vigil could not fetch it from its registry (${check.fetch.reason ?? 'no reason given'})`;
  if (check.fetch?.state === 'fetching') return 'Vigil is fetching it from its registry';
  if (check.fetch?.state === 'queued_for_evaluation') return `fetched, waiting for evaluation${check.fetch.expected_by ? ` (expected by ${check.fetch.expected_by})` : ''}`;
  if (check.queued) return 'Vigil holds it and will evaluate it';
  return 'Vigil has never seen it';
}

/** One line for people: `BLOCK pkg:npm/x@1 (risk 91): 3 findings (1 CRIT, 2 HIGH); top: install_script`. */
export function packageLine(check: PackageCheck): string {
  if (check.state === 'pending') return `PENDING ${check.artifact}: no verdict yet; ${pendingWhy(check)}. Not known to be safe.`;
  const s = check.findings_summary;
  const severities = s ? Object.entries(s.by_severity).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ') : '';
  const findings = s === null ? 'no findings summary' : `${s.total} finding${s.total === 1 ? '' : 's'}${severities ? ` (${severities})` : ''}${s.by_category.length > 0 ? `; categories: ${s.by_category.slice(0, 5).map((c) => c.category).join(', ')}` : ''}`;
  return `${check.verdict} ${check.artifact} (risk ${check.risk_score}): ${findings}; ${check.attestations} attestation${check.attestations === 1 ? '' : 's'}.`;
}

/** The advice as a sentence for the text of a result. */
export function adviceSentence(advice: Advice): string {
  switch (advice) {
    case 'proceed':
      return 'Advice: proceed (Vigil allows it).';
    case 'review':
      return 'Advice: review the findings before installing (Vigil warns).';
    case 'do_not_install':
      return 'Advice: do not install (Vigil blocks it); pick another package or version.';
    case 'unknown':
      return 'Advice: unknown; there is no verdict yet, so do not treat it as safe. Ask again later, or scan it locally.';
  }
}

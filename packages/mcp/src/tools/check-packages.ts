import type { Vigil } from '@vigil/client';
import { MAX_VERIFY_BATCH, type Verdict } from '@vigil/core';
import { LockfileError, parseLockfile } from '@vigil/lockfiles';
import { adviceOf, adviceSentence, checkReference, packageCheck, packageLine } from '../package-check.js';
import { MAX_CHECK_PACKAGES, type CheckPackagesOutput, type PackageCheck } from '../schemas.js';
import { ToolInputError, type ToolCall } from '../tool-result.js';

/** At most this many batch requests in flight at once: a lockfile of 1,000 packages is 10 requests, 4 at a time. */
const PARALLEL_BATCHES = 4;

/** Every reference verified with `POST /v1/artifacts/verify/batch`, 100 to a request, answers in order. */
export async function verifyMany(vigil: Vigil, references: readonly string[], call: ToolCall): Promise<PackageCheck[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < references.length; i += MAX_VERIFY_BATCH) chunks.push(references.slice(i, i + MAX_VERIFY_BATCH));
  const answers: PackageCheck[][] = new Array(chunks.length);
  let next = 0;
  let done = 0;
  const said = () => call.progress(`${done} of ${chunks.length} batch request${chunks.length === 1 ? '' : 's'} (${MAX_VERIFY_BATCH} packages each) answered`);
  said();
  const worker = async () => {
    while (next < chunks.length) {
      const index = next++;
      const chunk = chunks[index]!;
      const batch = await vigil.artifacts.verifyBatch(chunk, { signal: call.signal });
      answers[index] = batch.results.map((result, i) => packageCheck(chunk[i]!, result));
      done++;
      said();
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_BATCHES, chunks.length) }, worker));
  return answers.flat();
}

const RANK: Record<Verdict, number> = { ALLOW: 0, WARN: 1, BLOCK: 2 };

/** `check_packages`: a list of references, or the registry packages of a lockfile's content. */
export async function checkPackages(vigil: Vigil, input: { packages?: string[] | undefined; lockfile?: { file_name: string; content: string } | undefined }, call: ToolCall): Promise<{ text: string; structured: CheckPackagesOutput }> {
  if ((input.packages === undefined) === (input.lockfile === undefined)) throw new ToolInputError('expected exactly one of packages (a list of package references) and lockfile ({file_name, content})');
  let references: string[];
  let lockfile: CheckPackagesOutput['lockfile'] = null;
  if (input.packages !== undefined) {
    references = input.packages.map((ref, i) => checkReference(`packages[${i}]`, ref));
  } else {
    const { file_name, content } = input.lockfile!;
    let parsed;
    try {
      parsed = parseLockfile({ path: file_name, content });
    } catch (err) {
      if (err instanceof LockfileError) throw new ToolInputError(`lockfile: ${err.detail} (${err.code})`);
      throw err;
    }
    if (parsed.packages.length === 0) throw new ToolInputError(`lockfile: ${file_name} installs no registry package Vigil can check (${parsed.skipped.length} entries skipped)`);
    if (parsed.packages.length > MAX_CHECK_PACKAGES) throw new ToolInputError(`lockfile: ${file_name} installs ${parsed.packages.length} packages; at most ${MAX_CHECK_PACKAGES} per call (for a whole repository: vigil verify-repo)`);
    references = parsed.packages.map((p) => p.purl);
    lockfile = { format: parsed.format, format_version: parsed.format_version, packages: parsed.packages.length, skipped: parsed.skipped };
  }
  const results = await verifyMany(vigil, references, call);
  const summary = { total: results.length, blocked: 0, warned: 0, pending: 0, allowed: 0 };
  let worst: Verdict = 'ALLOW';
  for (const r of results) {
    if (r.state === 'pending') summary.pending++;
    else if (r.verdict === 'BLOCK') summary.blocked++;
    else if (r.verdict === 'WARN') summary.warned++;
    else summary.allowed++;
    // A package without a verdict is never allowed: pending counts as WARN (as `vigil verify`).
    const v: Verdict = r.state === 'pending' || r.verdict === null ? 'WARN' : r.verdict;
    if (RANK[v] > RANK[worst]) worst = v;
  }
  const advice = summary.pending > 0 && worst !== 'BLOCK' && summary.warned === 0 ? 'unknown' : adviceOf(worst);
  const lines = [
    `${worst}: ${summary.total} package${summary.total === 1 ? '' : 's'} checked${lockfile ? ` from ${input.lockfile!.file_name} (${lockfile.format}${lockfile.skipped.length > 0 ? `, ${lockfile.skipped.length} entries not read as registry packages` : ''})` : ''}: ${summary.blocked} blocked, ${summary.warned} warned, ${summary.pending} pending, ${summary.allowed} allowed.`,
    ...results.filter((r) => r.advice !== 'proceed').map((r) => `- ${packageLine(r)}`),
    adviceSentence(advice),
  ];
  return { text: lines.join('\n'), structured: { verdict: worst, advice, summary, lockfile, results } };
}

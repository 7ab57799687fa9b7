import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rmSync } from 'node:fs';
import { lstat, mkdtemp, readdir, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Track } from '@vigil/core';
import { adviceOf } from './package-check.js';
import { hasUnprintable } from './printable.js';
import type { LocalScan } from './schemas.js';
import { ToolInputError } from './tool-result.js';

/**
 * @vigil/sandbox (the runner, the unpacker) and @vigil/reference-agents are imported when a scan
 * runs, not with this module: a server that only answers verdicts never loads them.
 */
const loadSandbox = () => import('@vigil/sandbox');
const loadReferenceAgents = () => import('@vigil/reference-agents');

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}

/** The prefix of every scan's temporary directory, in the OS temporary directory. */
export const SCAN_DIR_PREFIX = 'vigil-mcp-scan-';
/** A scan directory this old is left over from a server that was killed (SIGKILL): `sweepStaleScanDirs` removes it. */
export const STALE_SCAN_DIR_MS = 60 * 60 * 1000;

/** The temporary directories of the scans running in this process (removed by each scan when it ends). */
const running = new Set<string>();

/** How many local scans are running in this process. */
export function scansRunning(): number {
  return running.size;
}

/** Removes the temporary directories of the scans still running (the process is about to exit). */
export function removeRunningScanDirs(): void {
  for (const dir of running) {
    try {
      rmSync(dir, { recursive: true, force: true });
      running.delete(dir);
    } catch {
      // Best effort at exit: sweepStaleScanDirs removes it at a later start.
    }
  }
}

/**
 * Removes this user's scan directories older than STALE_SCAN_DIR_MS: what a killed server (SIGKILL
 * cannot be caught) left behind. Returns how many were removed; never throws.
 */
export async function sweepStaleScanDirs(now = Date.now()): Promise<number> {
  const base = tmpdir();
  const names = await readdir(base).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(SCAN_DIR_PREFIX)) continue;
    const dir = join(base, name);
    const info = await lstat(dir).catch(() => null);
    if (info === null || !info.isDirectory() || (process.getuid && info.uid !== process.getuid())) continue;
    if (now - info.mtimeMs < STALE_SCAN_DIR_MS || running.has(dir)) continue;
    // @vigil/sandbox (its removeTree chmods what the agent made read-only) only when a plain rm fails:
    // a server that never scans does not load it.
    const gone = await rm(dir, { recursive: true, force: true }).then(
      () => true,
      async () => (await loadSandbox()).removeTree(dir),
    );
    if (gone) removed++;
  }
  return removed;
}

/** At most this many characters of a finding's text field. */
const MAX_FINDING_TEXT = 500;

export interface LocalScanOptions {
  /** The argument name for error messages (`path`). */
  argument: string;
  /** What relative paths resolve against. */
  cwd: string;
  track: Track;
  signal?: AbortSignal;
}

/**
 * The reference agent of `track` run on a local directory or archive in the agent sandbox, exactly
 * as `vigil scan --track <track>` runs it (docs/cli.md, "Local analysis"): an archive is unpacked by
 * `unpackArchive` into a scratch directory, and everything written is removed afterwards.
 */
export async function scanLocal(given: string, options: LocalScanOptions): Promise<LocalScan> {
  const path = resolve(options.cwd, given);
  const info = await stat(path).catch(() => null);
  // A path with control or bidi characters is quoted (escaped), so it cannot rewrite the answer around it.
  const shown = hasUnprintable(path) ? JSON.stringify(path) : path;
  if (info === null) throw new ToolInputError(`${options.argument}: ${shown} does not exist`);
  if (!info.isDirectory() && !info.isFile()) throw new ToolInputError(`${options.argument}: ${shown} is neither a directory nor a file`);
  const [{ materializeBundle, printableText, removeTree, runAgent, unpackArchive, UnpackError }, { referenceAgent }] = await Promise.all([loadSandbox(), loadReferenceAgents()]);
  // Findings quote the artifact (file names, evidence): unprintable characters out, bounded length.
  const text = (value: string) => printableText(value, MAX_FINDING_TEXT);
  const work = await mkdtemp(join(tmpdir(), SCAN_DIR_PREFIX));
  running.add(work);
  try {
    let root: string;
    let sha256: string | null = null;
    if (info.isDirectory()) root = await realpath(path);
    else {
      try {
        root = (await unpackArchive(path, join(work, 'artifact'))).root;
      } catch (err) {
        if (err instanceof UnpackError) throw new ToolInputError(`${options.argument}: ${shown}: ${err.message} (${err.code})`);
        throw err;
      }
      sha256 = await sha256File(path);
    }
    const agent = await referenceAgent(options.track);
    const bundleDir = await materializeBundle(agent.bundle, join(work, 'agent'));
    const outcome = await runAgent({
      bundleDir,
      entrypoint: agent.bundle.entrypoint,
      artifactDir: root,
      metadata: { track: options.track, sha256, bundleHash: null },
      workDir: work,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const verdict = outcome.ok ? outcome.result.verdict : null;
    return {
      path,
      track: options.track,
      verdict,
      advice: adviceOf(verdict),
      risk_score: outcome.ok ? outcome.result.risk_score : null,
      findings: outcome.ok ? outcome.result.findings.map((f) => ({ severity: f.severity, category: text(f.category), title: text(f.title), file: text(f.file), line: f.line ?? null, evidence: f.evidence === undefined ? null : text(f.evidence) })) : [],
      agent: { name: agent.name, version: agent.version, agent_hash: agent.agent_hash },
      elapsed_ms: Math.max(0, Math.round(outcome.elapsedMs)),
      failure_reason: outcome.ok ? null : `${outcome.failureReason}: ${outcome.detail}`,
    };
  } finally {
    if (await removeTree(work)) running.delete(work);
  }
}

/** A local scan's text for people and models: verdict line, then each finding on its own line. */
export function scanText(scan: LocalScan, what: string): string {
  const by = `${scan.agent.name}${scan.agent.version ? ` ${scan.agent.version}` : ''}`;
  if (scan.verdict === null) return `No verdict for ${what} ${scan.path}: the reference agent's run failed (${scan.failure_reason}). Not known to be safe.`;
  const lines = [`${scan.verdict} ${what} ${scan.path} (risk ${scan.risk_score}, ${scan.track}, scanned locally by ${by} in ${(scan.elapsed_ms / 1000).toFixed(1)} s): ${scan.findings.length} finding${scan.findings.length === 1 ? '' : 's'}.`];
  for (const f of scan.findings) lines.push(`- ${f.severity} ${f.category}: ${f.title} (${f.line === null ? f.file : `${f.file}:${f.line}`})`);
  return lines.join('\n');
}

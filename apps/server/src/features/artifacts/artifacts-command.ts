import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Track, Verdict } from '@vigil/core';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { BlobStore } from '../../platform/blobs/index.js';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { LoadArtifactError, loadArtifact, type LoadArtifactInput } from './load-artifact-file.js';

export const ARTIFACTS_USAGE =
  'artifacts add --track <track> --kind labeled|live [--ground-truth ALLOW|WARN|BLOCK] [--label <label>] [--source-id <id>] <path…> | artifacts load <manifest.json>';

export class ArtifactsCommandError extends Error {
  override name = 'ArtifactsCommandError';
  /** True when the arguments themselves are wrong (print the usage, exit 2). */
  constructor(message: string, readonly usage = false) {
    super(message);
  }
}

/** One artifact to load: what `artifacts add` takes as flags, and each entry of a manifest. */
const ManifestEntry = z
  .object({
    path: z.string().min(1),
    track: Track,
    kind: z.enum(['labeled', 'live']),
    ground_truth: Verdict.optional(),
    label: z.string().min(1).optional(),
    source_id: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.kind === 'labeled' && entry.ground_truth === undefined) ctx.addIssue({ code: 'custom', path: ['ground_truth'], message: 'a labeled artifact needs its ground truth' });
    if (entry.kind === 'live' && entry.ground_truth !== undefined) ctx.addIssue({ code: 'custom', path: ['ground_truth'], message: 'a live artifact has no ground truth' });
  });
type ManifestEntry = z.infer<typeof ManifestEntry>;

const Manifest = z.object({ artifacts: z.array(ManifestEntry) }).strict();

export interface ArtifactsCommandContext {
  db: Kysely<Database>;
  blobs: BlobStore;
  maxBytes: number;
  now: () => number;
  /** Each artifact's line as soon as it is loaded (a manifest of hundreds reports as it goes). */
  log: (line: string) => void;
}

function parseAddFlags(args: readonly string[]): ManifestEntry[] {
  const values = new Map<string, string>();
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      paths.push(arg);
      continue;
    }
    if (!['--track', '--kind', '--ground-truth', '--label', '--source-id'].includes(arg)) throw new ArtifactsCommandError(`unknown option ${arg}`, true);
    const value = args[++i];
    if (value === undefined) throw new ArtifactsCommandError(`${arg} needs a value`, true);
    if (values.has(arg)) throw new ArtifactsCommandError(`${arg} given twice`, true);
    values.set(arg, value);
  }
  if (paths.length === 0) throw new ArtifactsCommandError('add: expected at least one path', true);
  if (values.has('--source-id') && paths.length > 1) throw new ArtifactsCommandError('add: --source-id names one artifact; give one path with it', true);
  const entries = paths.map((path) => ({
    path,
    track: values.get('--track'),
    kind: values.get('--kind'),
    ...(values.has('--ground-truth') ? { ground_truth: values.get('--ground-truth') } : {}),
    ...(values.has('--label') ? { label: values.get('--label') } : {}),
    ...(values.has('--source-id') ? { source_id: values.get('--source-id') } : {}),
  }));
  const parsed = z.array(ManifestEntry).safeParse(entries);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = `--${String(issue.path[1] ?? '').replace('_', '-')}`;
    throw new ArtifactsCommandError(`${flag}: ${issue.message}`, true);
  }
  return parsed.data;
}

async function readManifest(file: string): Promise<ManifestEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ArtifactsCommandError(`${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ArtifactsCommandError(`${file}: not JSON (${(error as Error).message})`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ArtifactsCommandError(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  // Paths in a manifest are relative to the manifest, so a corpus and its manifest move together.
  return parsed.data.artifacts.map((entry) => ({ ...entry, path: resolve(dirname(file), entry.path) }));
}

/**
 * `vigil-server artifacts add|load` (docs/configuration.md, "Loading artifacts"): loads each artifact
 * in turn, printing one line per artifact; one that cannot be loaded is reported and the others still
 * load. Answers the exit code: 0, or 1 when any failed.
 */
export async function runArtifactsCommand(ctx: ArtifactsCommandContext, args: readonly string[]): Promise<number> {
  const [action, ...rest] = args;
  let entries: ManifestEntry[];
  if (action === 'add') entries = parseAddFlags(rest);
  else if (action === 'load' && rest.length === 1) entries = await readManifest(rest[0]!);
  else throw new ArtifactsCommandError(`expected ${ARTIFACTS_USAGE}`, true);
  const counts = { added: 0, unchanged: 0, existing: 0, failed: 0 };
  for (const entry of entries) {
    const input = {
      path: entry.path,
      track: entry.track,
      maxBytes: ctx.maxBytes,
      now: ctx.now(),
      ...(entry.label === undefined ? {} : { label: entry.label }),
      ...(entry.source_id === undefined ? {} : { sourceId: entry.source_id }),
      ...(entry.kind === 'labeled' ? { kind: 'labeled' as const, groundTruth: entry.ground_truth! } : { kind: 'live' as const }),
    } satisfies LoadArtifactInput;
    try {
      const loaded = await loadArtifact(ctx.db, ctx.blobs, input);
      counts[loaded.outcome] += 1;
      const what = `${loaded.bundleHash} (${loaded.kind}, ${loaded.contentHash}, ${loaded.size} bytes) from ${entry.path}`;
      ctx.log(loaded.outcome === 'existing' ? `existing ${what}: these bytes already are this artifact of the track; left as it is` : `${loaded.outcome} ${what}`);
    } catch (error) {
      if (!(error instanceof LoadArtifactError) && !(error instanceof VigilError)) throw error;
      counts.failed += 1;
      ctx.log(`failed ${entry.path}: ${error.message}`);
    }
  }
  ctx.log(`${counts.added} added, ${counts.unchanged} unchanged, ${counts.existing} existing under another name, ${counts.failed} failed`);
  return counts.failed > 0 ? 1 : 0;
}

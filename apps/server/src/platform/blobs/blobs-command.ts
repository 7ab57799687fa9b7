import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import type { Env } from '../config/env.js';
import { isBucketName, isEndpointUrl, normalisePrefix, redactEndpoint, s3ConnectionFromEnv, type S3Settings } from './blob-store-settings.js';
import type { MigrateBlobsProgress } from './migrate-blobs.js';

export class BlobsCommandError extends Error {
  override name = 'BlobsCommandError';
  constructor(
    message: string,
    /** A mistake in the command line (exit 2 with the usage text) rather than a failed run. */
    readonly usage = false,
  ) {
    super(message);
  }
}

/** `s3://bucket[/prefix]` into bucket and normalised prefix. */
export function parseS3Url(text: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(text);
  if (!match) throw new BlobsCommandError(`migrate: --to: expected s3://<bucket>[/<prefix>], got ${JSON.stringify(text)}`, true);
  const bucket = match[1] ?? '';
  if (!isBucketName(bucket)) throw new BlobsCommandError(`migrate: --to: expected a bucket name of 3-63 characters a-z 0-9 . -, got ${JSON.stringify(bucket)}`, true);
  try {
    return { bucket, prefix: normalisePrefix(match[2] ?? '') };
  } catch (error) {
    throw new BlobsCommandError(`migrate: --to: ${(error as Error).message}, got ${JSON.stringify(match[2])}`, true);
  }
}

function parseMigrateFlags(flags: readonly string[]): { to: string; endpoint: string | undefined } {
  let to: string | undefined;
  let endpoint: string | undefined;
  for (let i = 0; i < flags.length; i += 1) {
    const flag = flags[i];
    const value = flags[i + 1];
    if (flag !== '--to' && flag !== '--endpoint') throw new BlobsCommandError(`migrate: unknown option ${flag}`, true);
    if (value === undefined || value.startsWith('--')) throw new BlobsCommandError(`migrate: ${flag} needs a value`, true);
    if (flag === '--to') to = value;
    else endpoint = value;
    i += 1;
  }
  if (to === undefined) throw new BlobsCommandError('migrate: expected --to s3://<bucket>[/<prefix>]', true);
  if (endpoint !== undefined && !isEndpointUrl(endpoint)) throw new BlobsCommandError(`migrate: --endpoint: expected an http:// or https:// URL without credentials, query or fragment, got ${JSON.stringify(redactEndpoint(endpoint))}`, true);
  return { to, endpoint };
}

function progressLine(p: MigrateBlobsProgress): string {
  return `blobs migrate: ${p.done}/${p.total} blobs (${p.copied} copied, ${p.present} already there, ${p.failed} failed)`;
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isDirectory(),
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? false : Promise.reject(error)),
  );
}

/**
 * A source that is not there is refused before anything is copied: "0 of 0, exit 0" for a mistyped
 * or unset VIGIL_DATA_DIR would tell the operator that the real `blobs/sha256/` may be removed.
 */
async function checkSource(dataDir: string): Promise<void> {
  const absolute = resolve(dataDir);
  if (!(await isDirectory(absolute))) {
    throw new BlobsCommandError(`migrate: the data directory ${absolute} does not exist (VIGIL_DATA_DIR; nothing was copied)`);
  }
  const blobs = join(absolute, 'blobs', 'sha256');
  if (!(await isDirectory(blobs))) {
    throw new BlobsCommandError(`migrate: ${blobs} does not exist: ${absolute} holds no file-store blobs (VIGIL_DATA_DIR; nothing was copied)`);
  }
}

/**
 * `vigil-server blobs migrate --to s3://<bucket>[/<prefix>] [--endpoint <url>]`: copies the file
 * store under `<dataDir>/blobs` into the bucket (docs/storage.md, "Moving to S3"). Region, path
 * style, timeouts and credentials come from the environment as for VIGIL_BLOB_STORE=s3. Progress
 * goes to `progress` (stderr) at most once a second and at the end; the result lines are returned.
 * Resolves to the exit code: 0 when every blob is in the bucket, verified; 1 when some could not be.
 * A data directory without `blobs/sha256/` is refused (BlobsCommandError, exit 1) before the store is opened.
 */
export async function runBlobsCommand(
  args: readonly string[],
  context: { dataDir: string; env: Env; progress: (line: string) => void; log: (line: string) => void; now?: () => number },
): Promise<number> {
  const [sub, ...flags] = args;
  if (sub !== 'migrate') throw new BlobsCommandError('expected migrate --to s3://<bucket>[/<prefix>] [--endpoint <url>]', true);
  const { to, endpoint } = parseMigrateFlags(flags);
  const { bucket, prefix } = parseS3Url(to);
  let connection: Omit<S3Settings, 'bucket' | 'prefix'>;
  try {
    connection = s3ConnectionFromEnv(context.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new BlobsCommandError(`migrate: ${error.message}`);
    throw error;
  }
  await checkSource(context.dataDir);
  const settings: S3Settings = { ...connection, bucket, prefix, ...(endpoint === undefined ? {} : { endpoint }) };
  // Loaded here, not at the top: the AWS SDK is only needed by this command and the S3 store.
  const [{ createS3BlobStore }, { migrateBlobs }] = await Promise.all([import('./s3-blob-store.js'), import('./migrate-blobs.js')]);
  const root = join(context.dataDir, 'blobs');
  const target = createS3BlobStore(settings, root);
  const now = context.now ?? Date.now;
  let lastShown = 0;
  try {
    const result = await migrateBlobs(root, target, (p) => {
      if (p.done === p.total || now() - lastShown >= 1000) {
        lastShown = now();
        context.progress(progressLine(p));
      }
    });
    for (const failure of result.failures) context.log(`failed ${failure.hash}: ${failure.reason}`);
    context.log(
      `copied ${result.copied} blob(s) to s3://${bucket}/${prefix}, ${result.present} already there and verified, ${result.failed} failed (of ${result.total} under ${root})`,
    );
    return result.failed === 0 ? 0 : 1;
  } finally {
    target.close();
  }
}

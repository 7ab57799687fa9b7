import { join } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { envInteger, envText, type Env } from '../config/env.js';

/** Where artifact files and agent bundles live (docs/storage.md, "Blob store"). */
export type BlobStoreSettings =
  | { kind: 'file'; root: string }
  | {
      kind: 's3';
      s3: S3Settings;
      /** `<VIGIL_DATA_DIR>/blobs`: the S3 store spools uploads and reads through its `staging/`. */
      localRoot: string;
    };

export interface S3Settings {
  /** VIGIL_S3_BUCKET. */
  bucket: string;
  /** VIGIL_S3_PREFIX, normalised to end with `/` (or empty). */
  prefix: string;
  /** VIGIL_S3_ENDPOINT: undefined means AWS S3 for the region. */
  endpoint: string | undefined;
  /** VIGIL_S3_REGION, else AWS_REGION, else us-east-1. */
  region: string;
  /** VIGIL_S3_FORCE_PATH_STYLE: `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>`. */
  forcePathStyle: boolean;
  /** VIGIL_S3_TIMEOUT_MS: connecting, and the longest silence while a request or its body is in flight. */
  timeoutMs: number;
  /** VIGIL_S3_MAX_ATTEMPTS: tries of one request (and of one read whose body failed) before 502. */
  maxAttempts: number;
}

export const DEFAULT_S3_TIMEOUT_MS = 10_000;
export const DEFAULT_S3_MAX_ATTEMPTS = 3;
export const DEFAULT_S3_REGION = 'us-east-1';

/** Every variable `blobStoreSettingsFromEnv` reads, with its default and what it accepts. */
export const BLOB_STORE_VARIABLES = [
  { name: 'VIGIL_BLOB_STORE', default: 'file', accepts: 'file (<VIGIL_DATA_DIR>/blobs) or s3 (an S3-compatible bucket, VIGIL_S3_*)' },
  { name: 'VIGIL_S3_BUCKET', default: 'unset (required with VIGIL_BLOB_STORE=s3)', accepts: 'an S3 bucket name: 3-63 of a-z 0-9 . -' },
  { name: 'VIGIL_S3_PREFIX', default: 'empty', accepts: "key prefix inside the bucket, e.g. vigil/ (a '/' is added when missing)" },
  { name: 'VIGIL_S3_ENDPOINT', default: 'AWS S3 of the region', accepts: 'http(s) URL of an S3-compatible service (R2, MinIO, Ceph)' },
  { name: 'VIGIL_S3_REGION', default: `AWS_REGION, else ${DEFAULT_S3_REGION}`, accepts: 'region name, e.g. eu-west-1 (auto for R2)' },
  { name: 'VIGIL_S3_FORCE_PATH_STYLE', default: 'false', accepts: 'true or false: address the bucket as <endpoint>/<bucket> (MinIO, Ceph)' },
  { name: 'VIGIL_S3_TIMEOUT_MS', default: String(DEFAULT_S3_TIMEOUT_MS), accepts: 'integer 100-600000: connect, and longest silence of one request or body' },
  { name: 'VIGIL_S3_MAX_ATTEMPTS', default: String(DEFAULT_S3_MAX_ATTEMPTS), accepts: 'integer 1-10: tries of one request before the store counts as down (502)' },
] as const;

/** Settings that say which bucket: set with the file store, the deployment believes it shares blobs it does not. */
const S3_ONLY = ['VIGIL_S3_BUCKET', 'VIGIL_S3_PREFIX'];

/** AWS's rules for bucket names (no uppercase, no underscores, not an IP address). */
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Characters AWS calls safe in object keys; a prefix never starts with `/` nor holds `//` or `..` segments. */
const PREFIX_RE = /^[A-Za-z0-9!_.*'()/-]+$/;

export function isBucketName(text: string): boolean {
  return BUCKET_RE.test(text) && !/^\d+\.\d+\.\d+\.\d+$/.test(text) && !text.includes('..');
}

/** `''`, or the prefix with a trailing `/`; throws a message (without the variable name) when refused. */
export function normalisePrefix(text: string): string {
  if (text === '') return '';
  if (!PREFIX_RE.test(text) || text.startsWith('/') || text.includes('//') || text.split('/').some((s) => s === '.' || s === '..') || text.length > 512) {
    throw new Error("expected a key prefix of A-Z a-z 0-9 ! _ . * ' ( ) / - (no leading '/', no '//', '.' or '..' segments, at most 512 characters)");
  }
  return text.endsWith('/') ? text : `${text}/`;
}

export function isEndpointUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/**
 * An endpoint as it may be shown in an error: the user information (`user:password@`) and the
 * query and fragment, where credentials and signatures travel, become `***`. Works on text that is
 * not a valid URL too, since that is when it is shown.
 */
export function redactEndpoint(text: string): string {
  return text.replace(/^([^/?#]*\/\/)[^/?#]*@/, '$1***@').replace(/([?#]).*$/s, '$1***');
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const text = envText(env, name);
  if (text === undefined) return fallback;
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new ConfigError(name, `expected true or false, got ${JSON.stringify(text)}`);
}

/**
 * The S3 settings other than bucket and prefix (endpoint, region, path style, timeout, attempts):
 * shared by `VIGIL_BLOB_STORE=s3` and `vigil-server blobs migrate --to s3://…`.
 */
export function s3ConnectionFromEnv(env: Env): Omit<S3Settings, 'bucket' | 'prefix'> {
  const endpoint = envText(env, 'VIGIL_S3_ENDPOINT');
  if (endpoint !== undefined && !isEndpointUrl(endpoint)) {
    throw new ConfigError('VIGIL_S3_ENDPOINT', `expected an http:// or https:// URL without credentials, query or fragment, got ${JSON.stringify(redactEndpoint(endpoint))}`);
  }
  const region = envText(env, 'VIGIL_S3_REGION') ?? envText(env, 'AWS_REGION') ?? DEFAULT_S3_REGION;
  if (!/^[a-z0-9-]{1,64}$/.test(region)) {
    throw new ConfigError(envText(env, 'VIGIL_S3_REGION') === undefined ? 'AWS_REGION' : 'VIGIL_S3_REGION', `expected a region name such as eu-west-1, got ${JSON.stringify(region)}`);
  }
  return {
    endpoint,
    region,
    forcePathStyle: flag(env, 'VIGIL_S3_FORCE_PATH_STYLE', false),
    timeoutMs: envInteger(env, 'VIGIL_S3_TIMEOUT_MS', DEFAULT_S3_TIMEOUT_MS, { min: 100, max: 600_000, expected: 'an integer 100-600000' }),
    maxAttempts: envInteger(env, 'VIGIL_S3_MAX_ATTEMPTS', DEFAULT_S3_MAX_ATTEMPTS, { min: 1, max: 10, expected: 'an integer 1-10' }),
  };
}

/** Reads VIGIL_BLOB_STORE and the VIGIL_S3_* variables; the first invalid one throws a ConfigError naming it. */
export function blobStoreSettingsFromEnv(env: Env, dataDir: string): BlobStoreSettings {
  const kind = envText(env, 'VIGIL_BLOB_STORE') ?? 'file';
  const root = join(dataDir, 'blobs');
  if (kind === 'file') {
    // The connection settings (endpoint, region, …) are also read by `blobs migrate`, so only these count.
    const stray = S3_ONLY.find((name) => envText(env, name) !== undefined);
    if (stray !== undefined) throw new ConfigError(stray, 'is set but VIGIL_BLOB_STORE is file (the default); set VIGIL_BLOB_STORE=s3 to use S3');
    return { kind: 'file', root };
  }
  if (kind !== 's3') throw new ConfigError('VIGIL_BLOB_STORE', `expected file or s3, got ${JSON.stringify(kind)}`);
  const bucket = envText(env, 'VIGIL_S3_BUCKET');
  if (bucket === undefined) throw new ConfigError('VIGIL_S3_BUCKET', 'is required when VIGIL_BLOB_STORE=s3');
  if (!isBucketName(bucket)) throw new ConfigError('VIGIL_S3_BUCKET', `expected a bucket name of 3-63 characters a-z 0-9 . - (starting and ending with a letter or digit), got ${JSON.stringify(bucket)}`);
  let prefix: string;
  try {
    prefix = normalisePrefix(envText(env, 'VIGIL_S3_PREFIX') ?? '');
  } catch (error) {
    throw new ConfigError('VIGIL_S3_PREFIX', `${(error as Error).message}, got ${JSON.stringify(envText(env, 'VIGIL_S3_PREFIX'))}`);
  }
  return { kind: 's3', s3: { bucket, prefix, ...s3ConnectionFromEnv(env) }, localRoot: root };
}

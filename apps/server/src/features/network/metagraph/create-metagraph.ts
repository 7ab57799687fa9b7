import { NETUID } from '@vigil/core';
import { ConfigError } from '../../../platform/config/config-error.js';
import { envText } from '../../../platform/config/env.js';
import { CachedMetagraph, METAGRAPH_DEFAULTS } from './cached-metagraph.js';
import { FileMetagraphSource } from './file-metagraph-source.js';
import type { MetagraphSource } from './metagraph-source.js';
import { isSubtensorUrl } from './rpc-transport.js';
import { SubtensorMetagraphSource } from './subtensor-metagraph-source.js';

export interface MetagraphSettings {
  /** VIGIL_METAGRAPH_FILE: a JSON snapshot file (the embedded default). */
  file: string | undefined;
  /** VIGIL_SUBTENSOR_URL: a live subtensor endpoint; when set it is used instead of the file. */
  subtensorUrl: string | undefined;
  ttlSeconds: number;
  maxStalenessSeconds: number;
}

/** The variables `metagraphSettingsFromEnv` reads, for `vigil-server help` and the docs. */
export const METAGRAPH_VARIABLES = [
  { name: 'VIGIL_METAGRAPH_FILE', default: '<VIGIL_DATA_DIR>/metagraph.json', accepts: 'path of a JSON metagraph snapshot file' },
  { name: 'VIGIL_SUBTENSOR_URL', default: 'unset', accepts: 'http(s):// or ws(s):// subtensor JSON-RPC endpoint' },
  { name: 'VIGIL_METAGRAPH_TTL_S', default: String(METAGRAPH_DEFAULTS.ttlSeconds), accepts: 'integer seconds ≥ 0' },
  {
    name: 'VIGIL_METAGRAPH_MAX_STALENESS_S',
    default: String(METAGRAPH_DEFAULTS.maxStalenessSeconds),
    accepts: 'integer seconds ≥ VIGIL_METAGRAPH_TTL_S',
  },
] as const;

const nonEmpty = envText;

function wholeSeconds(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const text = nonEmpty(env, name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new ConfigError(name, `expected whole seconds ≥ 0, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/**
 * Reads the metagraph variables. `defaultFile` is the snapshot file used when neither
 * VIGIL_METAGRAPH_FILE nor VIGIL_SUBTENSOR_URL is set (e.g. under the data directory).
 */
export function metagraphSettingsFromEnv(
  env: Record<string, string | undefined>,
  options: { defaultFile?: string } = {},
): MetagraphSettings {
  const subtensorUrl = nonEmpty(env, 'VIGIL_SUBTENSOR_URL');
  if (subtensorUrl !== undefined && !isSubtensorUrl(subtensorUrl)) {
    throw new ConfigError('VIGIL_SUBTENSOR_URL', `expected an http(s):// or ws(s):// URL, got ${JSON.stringify(subtensorUrl)}`);
  }
  const ttlSeconds = wholeSeconds(env, 'VIGIL_METAGRAPH_TTL_S', METAGRAPH_DEFAULTS.ttlSeconds);
  const maxStalenessSeconds = wholeSeconds(env, 'VIGIL_METAGRAPH_MAX_STALENESS_S', METAGRAPH_DEFAULTS.maxStalenessSeconds);
  if (maxStalenessSeconds < ttlSeconds) {
    throw new ConfigError(
      'VIGIL_METAGRAPH_MAX_STALENESS_S',
      `${maxStalenessSeconds} is below VIGIL_METAGRAPH_TTL_S (${ttlSeconds})`,
    );
  }
  return {
    file: nonEmpty(env, 'VIGIL_METAGRAPH_FILE') ?? options.defaultFile,
    subtensorUrl,
    ttlSeconds,
    maxStalenessSeconds,
  };
}

/** The source the settings select: the live chain when a URL is set, otherwise the snapshot file. */
export function createMetagraphSource(settings: MetagraphSettings, options: { netuid?: number } = {}): MetagraphSource {
  const netuid = options.netuid ?? NETUID;
  if (settings.subtensorUrl !== undefined) return new SubtensorMetagraphSource({ url: settings.subtensorUrl, netuid });
  if (settings.file !== undefined) return new FileMetagraphSource(settings.file, { netuid });
  throw new ConfigError('VIGIL_METAGRAPH_FILE', 'set VIGIL_METAGRAPH_FILE or VIGIL_SUBTENSOR_URL to check validator permits');
}

export function createMetagraph(
  settings: MetagraphSettings,
  options: { netuid?: number; now?: () => number; onRefreshError?: (error: unknown) => void } = {},
): CachedMetagraph {
  return new CachedMetagraph({
    source: createMetagraphSource(settings, { netuid: options.netuid }),
    ttlSeconds: settings.ttlSeconds,
    maxStalenessSeconds: settings.maxStalenessSeconds,
    now: options.now,
    onRefreshError: options.onRefreshError,
  });
}

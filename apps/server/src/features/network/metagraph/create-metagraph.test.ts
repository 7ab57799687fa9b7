import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../platform/config/config-error.js';
import { createMetagraph, createMetagraphSource, metagraphSettingsFromEnv } from './create-metagraph.js';
import { FileMetagraphSource } from './file-metagraph-source.js';
import { SubtensorMetagraphSource } from './subtensor-metagraph-source.js';
import { ALICE, sampleSnapshot } from './test-support/snapshots.js';
import { writeSnapshotFile } from './write-snapshot-file.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('metagraphSettingsFromEnv', () => {
  it('applies the defaults: ttl 300 s, staleness 3600 s, the given default file', () => {
    expect(metagraphSettingsFromEnv({}, { defaultFile: '/data/metagraph.json' })).toEqual({
      file: '/data/metagraph.json',
      subtensorUrl: undefined,
      ttlSeconds: 300,
      maxStalenessSeconds: 3600,
    });
  });

  it('reads every variable', () => {
    expect(
      metagraphSettingsFromEnv({
        VIGIL_METAGRAPH_FILE: '/etc/vigil/mg.json',
        VIGIL_SUBTENSOR_URL: 'wss://entrypoint-finney.opentensor.ai:443',
        VIGIL_METAGRAPH_TTL_S: '60',
        VIGIL_METAGRAPH_MAX_STALENESS_S: '900',
      }),
    ).toEqual({
      file: '/etc/vigil/mg.json',
      subtensorUrl: 'wss://entrypoint-finney.opentensor.ai:443',
      ttlSeconds: 60,
      maxStalenessSeconds: 900,
    });
  });

  it('names the variable that is wrong', () => {
    const variable = (env: Record<string, string>) => {
      try {
        metagraphSettingsFromEnv(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).variable;
      }
      throw new Error('expected a ConfigError');
    };
    expect(variable({ VIGIL_SUBTENSOR_URL: 'finney' })).toBe('VIGIL_SUBTENSOR_URL');
    expect(variable({ VIGIL_METAGRAPH_TTL_S: '5m' })).toBe('VIGIL_METAGRAPH_TTL_S');
    expect(variable({ VIGIL_METAGRAPH_MAX_STALENESS_S: '-1' })).toBe('VIGIL_METAGRAPH_MAX_STALENESS_S');
    expect(variable({ VIGIL_METAGRAPH_TTL_S: '600', VIGIL_METAGRAPH_MAX_STALENESS_S: '300' })).toBe(
      'VIGIL_METAGRAPH_MAX_STALENESS_S',
    );
  });
});

describe('createMetagraphSource / createMetagraph', () => {
  const base = { ttlSeconds: 300, maxStalenessSeconds: 3600 };

  it('prefers the live chain when a subtensor URL is set, else the file, else refuses', () => {
    expect(createMetagraphSource({ ...base, file: '/f.json', subtensorUrl: 'http://127.0.0.1:9933' })).toBeInstanceOf(
      SubtensorMetagraphSource,
    );
    expect(createMetagraphSource({ ...base, file: '/f.json', subtensorUrl: undefined })).toBeInstanceOf(
      FileMetagraphSource,
    );
    expect(() => createMetagraphSource({ ...base, file: undefined, subtensorUrl: undefined })).toThrow(ConfigError);
  });

  it('builds a working cached metagraph from a snapshot file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-metagraph-create-'));
    const file = join(dir, 'metagraph.json');
    await writeSnapshotFile(file, sampleSnapshot());
    const metagraph = createMetagraph(metagraphSettingsFromEnv({ VIGIL_METAGRAPH_FILE: file }));
    expect(metagraph.ttlSeconds).toBe(300);
    expect(await metagraph.check(ALICE)).toEqual({ status: 'ok', uid: 0, validatorPermit: true });
  });
});

import { resolve } from 'node:path';
import { LIMITS } from '@vigil/core';
import { generateSecretKey, getPublicKey } from '@vigil/crypto';
import { formatVerifierKey, SIGNATURE_TYPE_COSIGNATURE_V1 } from '@vigil/tlog';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const CWD = '/srv/vigil';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, CWD);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    expect(loadConfig({}, CWD)).toEqual({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: resolve(CWD, '.vigil'),
      redisUrl: undefined,
      rateLimitPerMinute: 300,
      endpointRateLimitPerMinute: 120,
      bodyLimitBytes: 64 * 1024 * 1024,
      handlerTimeoutMs: 60_000,
      requestTimeoutMs: 30_000,
      drainIdleMs: 1_000,
      dbConnectTimeoutMs: 5_000,
      dbStatementTimeoutMs: 30_000,
      dbMigrationStatementTimeoutMs: 600_000,
      redisTimeoutMs: 1_000,
      migrationLockTimeoutMs: 60_000,
      corsOrigins: [],
      trustProxy: false,
      adminAllowlist: [],
      logWitnesses: [],
      logCheckpointIntervalMs: 60_000,
      debug: false,
      logLevel: 'info',
      production: false,
      bundleLimitBytes: 16 * 1024 * 1024,
      artifactLimitBytes: 64 * 1024 * 1024,
      demoHistoryDays: 36,
      runScheduler: true,
      metagraph: { file: resolve(CWD, '.vigil', 'metagraph.json'), subtensorUrl: undefined, ttlSeconds: 300, maxStalenessSeconds: 3600 },
      signedAuth: { freshnessSeconds: 120, failureLimitPerMinute: 20, validatorRegistration: 'open' },
      scheduler: {
        submissionMs: 86_400_000,
        evaluationMs: 172_800_000,
        gapMs: 3_600_000,
        intervalMs: 15_000,
        policyVersion: 'vigil-policy-1',
        labeledArtifacts: 20,
        liveArtifacts: 30,
      },
      repositories: { runInServe: true, pollMs: 5_000, github: { apiUrl: 'https://api.github.com', token: undefined, timeoutMs: 10_000 } },
      dashboard: { enabled: true, apiUrl: undefined },
      webhooks: {
        runInServe: true,
        timeoutMs: 15_000,
        concurrency: 32,
        endpointConcurrency: 4,
        accountConcurrency: 8,
        pollMs: 250,
        allowHttp: false,
        allowPrivate: false,
        retentionDays: 30,
        maxEndpointsPerAccount: 25,
      },
      registries: {
        enabled: true,
        runInServe: true,
        npm: { url: 'https://registry.npmjs.org', token: null },
        pypi: { url: 'https://pypi.org', token: null },
        pollMs: 2_000,
        retryBaseMs: 30_000,
        maxAttempts: 8,
        concurrency: 4,
        rate: { requestsPerSecond: 20, burst: 40 },
        watch: { intervalMs: 300_000, concurrency: 8, maxPerAccount: 1000 },
      },
      blobs: { kind: 'file', root: resolve(CWD, '.vigil', 'blobs') },
      metrics: { port: undefined, host: '127.0.0.1', queryTimeoutMs: 2_000 },
    });
    expect(loadConfig({}, CWD).bodyLimitBytes).toBe(LIMITS.bodyLimitBytes);
  });

  it('reads the S3 blob store variables and names a bad one', () => {
    const config = loadConfig(
      {
        VIGIL_BLOB_STORE: 's3',
        VIGIL_S3_BUCKET: 'vigil-blobs',
        VIGIL_S3_PREFIX: 'prod/eu',
        VIGIL_S3_ENDPOINT: 'https://minio.internal:9000',
        VIGIL_S3_FORCE_PATH_STYLE: 'true',
        AWS_REGION: 'eu-west-1',
        VIGIL_S3_TIMEOUT_MS: '2500',
        VIGIL_S3_MAX_ATTEMPTS: '5',
      },
      CWD,
    );
    expect(config.blobs).toEqual({
      kind: 's3',
      localRoot: resolve(CWD, '.vigil', 'blobs'),
      s3: { bucket: 'vigil-blobs', prefix: 'prod/eu/', endpoint: 'https://minio.internal:9000', region: 'eu-west-1', forcePathStyle: true, timeoutMs: 2500, maxAttempts: 5 },
    });
    expect(loadConfig({ VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: 'b12', VIGIL_S3_REGION: 'auto', AWS_REGION: 'eu-west-1' }, CWD).blobs).toEqual({
      kind: 's3',
      localRoot: resolve(CWD, '.vigil', 'blobs'),
      s3: { bucket: 'b12', prefix: '', endpoint: undefined, region: 'auto', forcePathStyle: false, timeoutMs: 10_000, maxAttempts: 3 },
    });
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 'gcs' }, CWD)).toThrow('VIGIL_BLOB_STORE: expected file or s3, got "gcs"');
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 's3' }, CWD)).toThrow('VIGIL_S3_BUCKET: is required when VIGIL_BLOB_STORE=s3');
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: 'My_Bucket' }, CWD)).toThrow(/^VIGIL_S3_BUCKET: expected a bucket name .*, got "My_Bucket"$/);
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: 'b12', VIGIL_S3_PREFIX: '/abs' }, CWD)).toThrow(/^VIGIL_S3_PREFIX: expected a key prefix/);
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: 'b12', VIGIL_S3_PREFIX: 'a/../b' }, CWD)).toThrow(/^VIGIL_S3_PREFIX: /);
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: 'b12', VIGIL_S3_ENDPOINT: 'ftp://x' }, CWD)).toThrow(/^VIGIL_S3_ENDPOINT: expected an http/);
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: 'b12', VIGIL_S3_ENDPOINT: 'https://key:secret@x' }, CWD)).toThrow(/^VIGIL_S3_ENDPOINT: /);
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: 'b12', VIGIL_S3_FORCE_PATH_STYLE: 'yes' }, CWD)).toThrow('VIGIL_S3_FORCE_PATH_STYLE: expected true or false, got "yes"');
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: 'b12', VIGIL_S3_TIMEOUT_MS: '50' }, CWD)).toThrow('VIGIL_S3_TIMEOUT_MS: expected an integer 100-600000, got "50"');
    expect(() => loadConfig({ VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: 'b12', VIGIL_S3_MAX_ATTEMPTS: '0' }, CWD)).toThrow('VIGIL_S3_MAX_ATTEMPTS: expected an integer 1-10, got "0"');
    // A bucket with the file store would be a deployment that believes it shares blobs it does not.
    expect(() => loadConfig({ VIGIL_S3_BUCKET: 'b12' }, CWD)).toThrow('VIGIL_S3_BUCKET: is set but VIGIL_BLOB_STORE is file (the default); set VIGIL_BLOB_STORE=s3 to use S3');
  });

  it('reads the repository worker variables and names a bad one', () => {
    const config = loadConfig(
      { VIGIL_REPOSITORY_WORKER: 'false', VIGIL_REPOSITORY_POLL_S: '30', VIGIL_GITHUB_API_URL: 'https://ghe.example/api/v3', VIGIL_GITHUB_TOKEN: 'ghp_x' },
      CWD,
    );
    expect(config.repositories).toEqual({ runInServe: false, pollMs: 30_000, github: { apiUrl: 'https://ghe.example/api/v3', token: 'ghp_x', timeoutMs: 10_000 } });
    expect(() => loadConfig({ VIGIL_REPOSITORY_WORKER: 'sometimes' }, CWD)).toThrow('VIGIL_REPOSITORY_WORKER: expected true or false, got "sometimes"');
    expect(() => loadConfig({ VIGIL_REPOSITORY_POLL_S: '0' }, CWD)).toThrow('VIGIL_REPOSITORY_POLL_S: expected an integer 1-3600, got "0"');
  });

  it('reads the webhook variables and names a bad one', () => {
    const config = loadConfig(
      {
        VIGIL_WEBHOOK_WORKER: 'false',
        VIGIL_WEBHOOK_TIMEOUT_MS: '2000',
        VIGIL_WEBHOOK_CONCURRENCY: '8',
        VIGIL_WEBHOOK_ENDPOINT_CONCURRENCY: '2',
        VIGIL_WEBHOOK_ACCOUNT_CONCURRENCY: '3',
        VIGIL_WEBHOOK_POLL_MS: '50',
        VIGIL_WEBHOOK_ALLOW_HTTP: 'true',
        VIGIL_WEBHOOK_ALLOW_PRIVATE: '1',
        VIGIL_EVENT_RETENTION_DAYS: '7',
        VIGIL_WEBHOOK_MAX_ENDPOINTS: '3',
      },
      CWD,
    );
    expect(config.webhooks).toEqual({
      runInServe: false,
      timeoutMs: 2000,
      concurrency: 8,
      endpointConcurrency: 2,
      accountConcurrency: 3,
      pollMs: 50,
      allowHttp: true,
      allowPrivate: true,
      retentionDays: 7,
      maxEndpointsPerAccount: 3,
    });
    expect(() => loadConfig({ VIGIL_WEBHOOK_MAX_ENDPOINTS: '0' }, CWD)).toThrow('VIGIL_WEBHOOK_MAX_ENDPOINTS: expected an integer 1-10000, got "0"');
    expect(() => loadConfig({ VIGIL_WEBHOOK_TIMEOUT_MS: '50' }, CWD)).toThrow('VIGIL_WEBHOOK_TIMEOUT_MS: expected an integer 100-120000, got "50"');
    expect(() => loadConfig({ VIGIL_WEBHOOK_ALLOW_PRIVATE: 'yes' }, CWD)).toThrow('VIGIL_WEBHOOK_ALLOW_PRIVATE: expected true or false, got "yes"');
    expect(() => loadConfig({ VIGIL_EVENT_RETENTION_DAYS: '0' }, CWD)).toThrow('VIGIL_EVENT_RETENTION_DAYS: expected an integer 1-3650, got "0"');
  });

  it('reads the network variables and names a bad one', () => {
    const config = loadConfig(
      { VIGIL_BUNDLE_LIMIT_BYTES: '1024', VIGIL_SCHEDULER: 'false', VIGIL_METAGRAPH_FILE: '/etc/vigil/mg.json', VIGIL_ROUND_GAP_S: '0' },
      CWD,
    );
    expect(config).toMatchObject({ bundleLimitBytes: 1024, runScheduler: false, metagraph: { file: '/etc/vigil/mg.json' }, scheduler: { gapMs: 0 } });
    expect(() => loadConfig({ VIGIL_SCHEDULER: 'sometimes' }, CWD)).toThrow(/^VIGIL_SCHEDULER: /);
    expect(() => loadConfig({ VIGIL_SIGNATURE_FRESHNESS_S: '0' }, CWD)).toThrow(/^VIGIL_SIGNATURE_FRESHNESS_S: /);
  });

  it('reads the artifact upload limit and names a bad value', () => {
    expect(loadConfig({ VIGIL_ARTIFACT_LIMIT_BYTES: ' 1048576 ' }, CWD).artifactLimitBytes).toBe(1_048_576);
    expect(configError({ VIGIL_ARTIFACT_LIMIT_BYTES: '0' }).message).toMatch(/^VIGIL_ARTIFACT_LIMIT_BYTES: .*"0"/);
    expect(configError({ VIGIL_ARTIFACT_LIMIT_BYTES: '64MiB' }).message).toMatch(/^VIGIL_ARTIFACT_LIMIT_BYTES: /);
  });

  it('reads the demo seed\'s history length and names a bad value', () => {
    expect(loadConfig({ VIGIL_DEMO_HISTORY_DAYS: ' 9 ' }, CWD).demoHistoryDays).toBe(9);
    expect(configError({ VIGIL_DEMO_HISTORY_DAYS: '7' }).message).toBe('VIGIL_DEMO_HISTORY_DAYS: expected an integer 8-365, got "7"');
    expect(configError({ VIGIL_DEMO_HISTORY_DAYS: '2w' }).message).toMatch(/^VIGIL_DEMO_HISTORY_DAYS: /);
  });

  it('reads the migration lock timeout and names a bad value', () => {
    expect(loadConfig({ VIGIL_MIGRATION_LOCK_TIMEOUT_MS: ' 5000 ' }, CWD).migrationLockTimeoutMs).toBe(5_000);
    expect(configError({ VIGIL_MIGRATION_LOCK_TIMEOUT_MS: '0' }).message).toBe('VIGIL_MIGRATION_LOCK_TIMEOUT_MS: expected an integer 1-2147483647, got "0"');
    expect(configError({ VIGIL_MIGRATION_LOCK_TIMEOUT_MS: '60s' }).message).toMatch(/^VIGIL_MIGRATION_LOCK_TIMEOUT_MS: /);
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '127.0.0.1',
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
        VIGIL_DATA_DIR: 'data',
        REDIS_URL: 'redis://127.0.0.1:6379',
        VIGIL_RATE_LIMIT_PER_MINUTE: '10',
        VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE: '5',
        VIGIL_BODY_LIMIT_BYTES: '1024',
        VIGIL_HANDLER_TIMEOUT_MS: '250',
        VIGIL_REQUEST_TIMEOUT_MS: '5000',
        VIGIL_DRAIN_IDLE_MS: '0',
        VIGIL_DB_CONNECT_TIMEOUT_MS: '750',
        VIGIL_DB_STATEMENT_TIMEOUT_MS: '9000',
        VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS: '1200000',
        VIGIL_REDIS_TIMEOUT_MS: '300',
        VIGIL_CORS_ORIGINS: 'https://a.example, http://localhost:3000',
        VIGIL_TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
        VIGIL_DEBUG: 'true',
        LOG_LEVEL: 'warn',
      },
      CWD,
    );
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/test',
      dataDir: '/srv/vigil/data',
      redisUrl: 'redis://127.0.0.1:6379',
      rateLimitPerMinute: 10,
      endpointRateLimitPerMinute: 5,
      bodyLimitBytes: 1024,
      handlerTimeoutMs: 250,
      requestTimeoutMs: 5_000,
      drainIdleMs: 0,
      dbConnectTimeoutMs: 750,
      dbStatementTimeoutMs: 9_000,
      dbMigrationStatementTimeoutMs: 1_200_000,
      redisTimeoutMs: 300,
      corsOrigins: ['https://a.example', 'http://localhost:3000'],
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      debug: true,
      logLevel: 'warn',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' }, CWD)).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it('reads VIGIL_TRUST_PROXY as a boolean, a hop count or addresses', () => {
    expect(loadConfig({ VIGIL_TRUST_PROXY: 'true' }, CWD).trustProxy).toBe(true);
    expect(loadConfig({ VIGIL_TRUST_PROXY: 'false' }, CWD).trustProxy).toBe(false);
    expect(loadConfig({ VIGIL_TRUST_PROXY: '1' }, CWD).trustProxy).toBe(1);
    expect(loadConfig({ VIGIL_TRUST_PROXY: '0' }, CWD).trustProxy).toBe(false);
    expect(loadConfig({ VIGIL_TRUST_PROXY: '::1,fd00::/8' }, CWD).trustProxy).toEqual(['::1', 'fd00::/8']);
  });

  it('accepts the SQLite forms of DATABASE_URL', () => {
    for (const url of [':memory:', 'sqlite::memory:', 'sqlite:/var/lib/vigil.db', 'postgresql://db/vigil']) {
      expect(loadConfig({ DATABASE_URL: url }, CWD).databaseUrl).toBe(url);
    }
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: expected an integer 1-65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT: expected an integer 1-65535, got "70000"'],
    [{ PORT: '80.5' }, 'PORT: expected an integer 1-65535, got "80.5"'],
    [{ VIGIL_RATE_LIMIT_PER_MINUTE: '0' }, 'VIGIL_RATE_LIMIT_PER_MINUTE: expected an integer >= 1, got "0"'],
    [{ VIGIL_BODY_LIMIT_BYTES: '-5' }, 'VIGIL_BODY_LIMIT_BYTES: expected an integer >= 1, got "-5"'],
    [{ VIGIL_HANDLER_TIMEOUT_MS: '99999999999' }, 'VIGIL_HANDLER_TIMEOUT_MS: expected an integer 1-2147483647, got "99999999999"'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: expected postgres://…, postgresql://…, sqlite:<file>, :memory: or sqlite::memory:, got "mysql://x"'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL: expected redis://… or rediss://…, got "localhost:6379"'],
    [{ VIGIL_DEBUG: 'maybe' }, 'VIGIL_DEBUG: expected true or false, got "maybe"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
  ])('rejects %j with one line naming the variable', (env, message) => {
    const error = configError(env);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain('\n');
  });

  it('rejects origins with a path and non-origins', () => {
    expect(configError({ VIGIL_CORS_ORIGINS: 'https://a.example/app' }).variable).toBe('VIGIL_CORS_ORIGINS');
    expect(configError({ VIGIL_CORS_ORIGINS: '*' }).variable).toBe('VIGIL_CORS_ORIGINS');
  });

  it('rejects malformed proxy addresses', () => {
    expect(configError({ VIGIL_TRUST_PROXY: '10.0.0.0/33' }).message).toMatch(/^VIGIL_TRUST_PROXY: /);
    expect(configError({ VIGIL_TRUST_PROXY: 'proxy.local' }).variable).toBe('VIGIL_TRUST_PROXY');
  });

  it('reads the admin allowlist and refuses entries that are not IPs or CIDRs', () => {
    expect(loadConfig({ VIGIL_ADMIN_ALLOWLIST: ' 127.0.0.1, 10.0.0.0/8,::1 ' }, CWD).adminAllowlist).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(configError({ VIGIL_ADMIN_ALLOWLIST: '10.0.0.0/40' }).message).toBe(
      'VIGIL_ADMIN_ALLOWLIST: expected comma-separated IP addresses/CIDRs, got "10.0.0.0/40"',
    );
    expect(configError({ VIGIL_ADMIN_ALLOWLIST: 'admin.local' }).variable).toBe('VIGIL_ADMIN_ALLOWLIST');
  });

  it('reads the log witnesses (type 0x04 verifier keys only) and the checkpoint interval', () => {
    const witness = formatVerifierKey('witness.example/w1', getPublicKey(generateSecretKey()), SIGNATURE_TYPE_COSIGNATURE_V1);
    const other = formatVerifierKey('witness.example/w2', getPublicKey(generateSecretKey()), SIGNATURE_TYPE_COSIGNATURE_V1);
    expect(loadConfig({}, CWD)).toMatchObject({ logWitnesses: [], logCheckpointIntervalMs: 60_000 });
    expect(loadConfig({ VIGIL_LOG_WITNESSES: ` ${witness}, ${other}` }, CWD).logWitnesses).toEqual([witness, other]);
    // A log's own key type (0x01) is not a witness key.
    const logKey = formatVerifierKey('vigil.example/log', getPublicKey(generateSecretKey()));
    expect(configError({ VIGIL_LOG_WITNESSES: logKey }).message).toBe(
      `VIGIL_LOG_WITNESSES: expected comma-separated witness verifier keys of type 0x04 (<name>+<8 hex key id>+<base64 of 0x04 and the 32-byte key>), got ${JSON.stringify(logKey)}`,
    );
    expect(configError({ VIGIL_LOG_WITNESSES: witness.replace(/\+[0-9a-f]{8}\+/, '+00000000+') }).variable).toBe('VIGIL_LOG_WITNESSES');
    expect(loadConfig({ VIGIL_LOG_CHECKPOINT_INTERVAL_MS: '5000' }, CWD).logCheckpointIntervalMs).toBe(5000);
    expect(configError({ VIGIL_LOG_CHECKPOINT_INTERVAL_MS: '999' }).variable).toBe('VIGIL_LOG_CHECKPOINT_INTERVAL_MS');
    expect(configError({ VIGIL_LOG_CHECKPOINT_INTERVAL_MS: '86400001' }).variable).toBe('VIGIL_LOG_CHECKPOINT_INTERVAL_MS');
  });

  it('refuses debug mode in production', () => {
    expect(configError({ VIGIL_DEBUG: 'true', NODE_ENV: 'production' }).message).toBe(
      'VIGIL_DEBUG: debug mode (/docs, /redoc, /openapi.json) is refused when NODE_ENV=production',
    );
    expect(loadConfig({ VIGIL_DEBUG: 'false', NODE_ENV: 'production' }, CWD)).toMatchObject({ debug: false, production: true });
  });

  it('never echoes the password of a refused DATABASE_URL or REDIS_URL', () => {
    for (const [name, value] of [
      ['DATABASE_URL', 'mysql://admin:s3cret-pw@db.internal/vigil'],
      ['REDIS_URL', 'http://user:s3cret-pw@cache.internal:6379'],
    ] as const) {
      let message = '';
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(name);
      expect(message).not.toContain('s3cret-pw');
      expect(message).toContain('***');
    }
  });
});

describe('one rule for every setting', () => {
  // Surrounding whitespace is ignored by every reader (platform/config/env.ts): the same padded value means the
  // same thing whether config.ts, the signed-auth, scheduler or metagraph settings read it.
  it('reads padded values as their trimmed text in every group of settings', () => {
    const config = loadConfig(
      {
        PORT: ' 8081 ',
        VIGIL_SIGNATURE_FRESHNESS_S: ' 60 ',
        VIGIL_SIGNATURE_FAILURE_LIMIT: '\t7\n',
        VIGIL_ROUND_SUBMISSION_S: ' 90 ',
        NODE_ENV: ' production ',
      },
      '/tmp',
    );
    expect(config.port).toBe(8081);
    expect(config.signedAuth).toEqual({ freshnessSeconds: 60, failureLimitPerMinute: 7, validatorRegistration: 'open' });
    expect(config.production).toBe(true);
    expect(config.scheduler).toEqual(loadConfig({ VIGIL_ROUND_SUBMISSION_S: '90' }, '/tmp').scheduler);
  });

  it('reads the metrics settings and names a bad one', () => {
    expect(loadConfig({ VIGIL_METRICS_PORT: '9464', VIGIL_METRICS_HOST: '0.0.0.0', VIGIL_METRICS_QUERY_TIMEOUT_MS: '500' }, CWD).metrics).toEqual({
      port: 9464,
      host: '0.0.0.0',
      queryTimeoutMs: 500,
    });
    expect(() => loadConfig({ VIGIL_METRICS_PORT: '0' }, CWD)).toThrow('VIGIL_METRICS_PORT: expected an integer 1-65535, got "0"');
    expect(() => loadConfig({ VIGIL_METRICS_HOST: 'metrics.local' }, CWD)).toThrow('VIGIL_METRICS_HOST: expected an IP address, got "metrics.local"');
    expect(() => loadConfig({ VIGIL_METRICS_QUERY_TIMEOUT_MS: '50' }, CWD)).toThrow('VIGIL_METRICS_QUERY_TIMEOUT_MS: expected an integer 100-60000, got "50"');
  });

  it('treats a blank value as unset everywhere', () => {
    const blank = loadConfig({ PORT: '  ', VIGIL_SIGNATURE_FRESHNESS_S: '  ', VIGIL_ROUND_SUBMISSION_S: ' ' }, '/tmp');
    const unset = loadConfig({}, '/tmp');
    expect({ port: blank.port, signedAuth: blank.signedAuth, scheduler: blank.scheduler }).toEqual({
      port: unset.port,
      signedAuth: unset.signedAuth,
      scheduler: unset.scheduler,
    });
  });
});

describe('docs/configuration.md', () => {
  it('has a row for every variable the server reads, with its default', async () => {
    const { readFileSync } = await import('node:fs');
    const { ALL_CONFIG_VARIABLES } = await import('./config.js');
    const text = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
    const missing = ALL_CONFIG_VARIABLES.filter((variable) => !text.includes(`| \`${variable.name}\` |`)).map((variable) => variable.name);
    expect(missing).toEqual([]);
    // A default of a number or word is written in the row as code: `20`.
    const rows = new Map(text.split('\n').filter((line) => line.startsWith('| `')).map((line) => [line.split('`')[1]!, line]));
    const wrongDefault = ALL_CONFIG_VARIABLES.filter((v) => /^[0-9]+$/.test(String(v.default)) && !rows.get(v.name)?.includes(`\`${v.default}\``)).map((v) => `${v.name}=${v.default}`);
    expect(wrongDefault).toEqual([]);
  });
});

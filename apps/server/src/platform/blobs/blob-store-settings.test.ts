import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/config-error.js';
import { redactEndpoint, s3ConnectionFromEnv } from './blob-store-settings.js';
import { runBlobsCommand } from './blobs-command.js';

describe('VIGIL_S3_ENDPOINT and --endpoint refusals never echo the secrets they hold', () => {
  it('user information, query and fragment are shown as ***', () => {
    expect(redactEndpoint('http://u:p@h')).toBe('http://***@h');
    expect(redactEndpoint('https://AKIAX:s3cr3t@minio:9000/x?X-Amz-Signature=abc#frag')).toBe('https://***@minio:9000/x?***');
    expect(redactEndpoint('ftp://key:secret@host')).toBe('ftp://***@host');
    expect(redactEndpoint('http://minio:9000')).toBe('http://minio:9000');
  });

  it('the configuration error names the variable, says why, and leaves the password out', () => {
    let thrown: unknown;
    try {
      s3ConnectionFromEnv({ VIGIL_S3_ENDPOINT: 'http://admin:hunter2@minio:9000?token=t0k' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as Error).message;
    expect(message).toBe('VIGIL_S3_ENDPOINT: expected an http:// or https:// URL without credentials, query or fragment, got "http://***@minio:9000?***"');
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('t0k');
  });

  it('blobs migrate --endpoint is refused the same way', async () => {
    const run = runBlobsCommand(['migrate', '--to', 's3://bucket-a', '--endpoint', 'https://admin:hunter2@minio'], {
      dataDir: '/nonexistent',
      env: {},
      progress: () => undefined,
      log: () => undefined,
    });
    await expect(run).rejects.toThrow('migrate: --endpoint: expected an http:// or https:// URL without credentials, query or fragment, got "https://***@minio"');
  });
});

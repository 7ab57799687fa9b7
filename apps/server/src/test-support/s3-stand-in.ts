import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * s3rver (npm), a local S3 implementation, as the tests' object store: a stand-in for AWS S3, R2,
 * MinIO or Ceph that speaks enough of the S3 API (signature v4, PutObject, GetObject, HeadObject,
 * multipart uploads) for the real AWS SDK. It does not check Content-MD5 or x-amz-checksum-*
 * headers nor list multipart uploads; docs/storage.md says what that leaves untested.
 */
export interface S3StandIn {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  readonly port: number;
  readonly bucket: string;
  /** The stand-in's fixed credentials (also what AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY must say). */
  readonly credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

export async function startS3StandIn(bucket = 'vigil-test'): Promise<S3StandIn> {
  const directory = await mkdtemp(join(tmpdir(), 'vigil-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

// The S3 blob store (VIGIL_BLOB_STORE=s3) against the file store, in one run: streaming puts and
// verified reads of the same blobs, as ratios against the file store (docs/benchmarks.md, "Blob
// store"). The bucket is s3rver, the tests' stand-in, on loopback: it measures the store's own
// overhead (spooling, hashing, staging, copy, HTTP and signing through the real AWS SDK), not the
// latency of a real S3 region, which adds its round trips on top.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { createBlobStore } from '@vigil/server';

const COUNT = Number(process.env.BENCH_BLOBS ?? 100);
const SIZE = Number(process.env.BENCH_BLOB_BYTES ?? 256 * 1024);
const LARGE = Number(process.env.BENCH_LARGE_BYTES ?? 32 * 1024 * 1024);

process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const work = await mkdtemp(join(tmpdir(), 'vigil-bench-blobs-'));
const server = new S3rver({ address: '127.0.0.1', port: 0, directory: join(work, 's3rver'), silent: true, configureBuckets: [{ name: 'bench' }] });
const { port } = await server.run();

const blobs = Array.from({ length: COUNT }, () => randomBytes(SIZE));
const large = randomBytes(LARGE);

async function measure(store) {
  let started = process.hrtime.bigint();
  const hashes = [];
  for (const bytes of blobs) hashes.push((await store.putStream(Readable.from([bytes]), { maxBytes: SIZE })).hash);
  const putMs = Number(process.hrtime.bigint() - started) / 1e6;
  started = process.hrtime.bigint();
  for (const hash of hashes) if ((await store.get(hash)) === undefined) throw new Error(`${hash} not read back`);
  const getMs = Number(process.hrtime.bigint() - started) / 1e6;
  started = process.hrtime.bigint();
  const { hash } = await store.putStream(Readable.from([large]), { maxBytes: LARGE });
  const largePutMs = Number(process.hrtime.bigint() - started) / 1e6;
  started = process.hrtime.bigint();
  await store.withLocalFile(hash, async () => undefined);
  const largeGetMs = Number(process.hrtime.bigint() - started) / 1e6;
  store.close();
  return { putMs, getMs, largePutMs, largeGetMs };
}

try {
  const file = await measure(await createBlobStore({ kind: 'file', root: join(work, 'file') }));
  const s3 = await measure(
    await createBlobStore({
      kind: 's3',
      localRoot: join(work, 's3-local'),
      s3: { bucket: 'bench', prefix: 'bench/', endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true, timeoutMs: 10_000, maxAttempts: 3 },
    }),
  );
  const row = (name, f, s) => `${name.padEnd(44)} ${f.toFixed(1).padStart(9)} ms ${s.toFixed(1).padStart(9)} ms   x${(s / f).toFixed(1)}`;
  console.log(`${COUNT} blobs of ${SIZE} bytes, one of ${LARGE} bytes; s3rver on loopback`);
  console.log(`${''.padEnd(44)} ${'file'.padStart(12)} ${'s3'.padStart(12)}   s3/file`);
  console.log(row(`putStream x${COUNT}`, file.putMs, s3.putMs));
  console.log(row(`get (hashed) x${COUNT}`, file.getMs, s3.getMs));
  console.log(row(`putStream of ${LARGE} bytes (multipart on s3)`, file.largePutMs, s3.largePutMs));
  console.log(row(`withLocalFile of ${LARGE} bytes`, file.largeGetMs, s3.largeGetMs));
} finally {
  await server.close();
  await rm(work, { recursive: true, force: true });
}

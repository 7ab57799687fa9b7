import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { BlobStore } from '../src/platform/blobs/index.js';
import type { Config } from '../src/config.js';
import type { VigilDatabase } from '../src/platform/db/database.js';
import type { Runtime } from '../src/runtime.js';
import { startTestApp } from '../src/test-support/test-app.js';

export interface TestServer {
  app: FastifyInstance;
  runtime: Runtime;
  url: string;
  port: number;
  database: VigilDatabase;
  config: Config;
  /** Everything the app logged, one JSON line per entry. */
  logs: () => string;
  close: () => Promise<void>;
}

export interface StartOptions {
  config?: Partial<Config>;
  /** The server's clock in epoch ms (the runtime's `clock`); absent, real time. */
  clock?: () => number;
  redis?: Redis;
  /** Registers test-only routes before the server starts listening. */
  register?: (app: FastifyInstance) => void;
  database?: VigilDatabase;
  /** The data directory (server-key, blobs/) instead of a fresh one; left in place at close. Share one to run several instances. */
  dataDir?: string;
  /** The blob store instead of the file store under `<dataDir>/blobs` (an S3 store, say); not closed at close. */
  blobs?: BlobStore;
  /** Count and time requests in the process's metrics (vigil_http_*), as `serve` does with VIGIL_METRICS_PORT set. */
  metrics?: boolean;
}

/**
 * A real Vigil server listening on 127.0.0.1 with an ephemeral port, over a migrated in-memory SQLite
 * (startTestApp with the app's log kept for `logs()`).
 */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const stream = new PassThrough();
  let logText = '';
  stream.on('data', (chunk: Buffer) => {
    logText += chunk.toString('utf8');
  });
  const server = await startTestApp({
    env: { LOG_LEVEL: 'info' },
    ...(options.config ? { config: options.config } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.database ? { database: options.database } : {}),
    ...(options.register ? { register: options.register } : {}),
    overrides: {
      logStream: stream,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.redis ? { redis: options.redis } : {}),
      ...(options.blobs ? { blobs: options.blobs } : {}),
      ...(options.metrics ? { metrics: true } : {}),
    },
  });
  return { ...server, logs: () => logText };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte written to the end of the response. */
  elapsedMs: number;
}

/**
 * Writes `request` (raw HTTP/1.1 text, possibly without a body the headers promise) and reads until the
 * server closes the connection or `timeoutMs` passes; fetch cannot send a chunked POST or a lying length.
 */
export function rawRequest(port: number, request: string, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms; got ${JSON.stringify(data)}`));
    }, timeoutMs);
    const finish = () => {
      const split = data.indexOf('\r\n\r\n');
      if (split < 0) return false;
      const [statusLine = '', ...lines] = data.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = data.slice(split + 4);
      const length = Number(headers['content-length'] ?? NaN);
      if (!Number.isNaN(length) && Buffer.byteLength(body) < length) return false;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, elapsedMs: Date.now() - started });
      return true;
    };
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      finish();
    });
    socket.on('end', () => {
      if (!finish()) {
        clearTimeout(timer);
        reject(new Error(`connection closed before a full response: ${JSON.stringify(data)}`));
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(request);
  });
}

/** A clock that moves one second forward every time it is read, so uncached bodies always differ. */
export function tickingClock(start = Date.UTC(2026, 10, 21, 10, 0, 0)): () => number {
  let t = start;
  return () => (t += 1_000);
}

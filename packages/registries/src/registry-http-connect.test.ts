import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryHttp } from './registry-http.js';
import { resolveRegistrySettings } from './registry-settings.js';

// A connect that never completes needs a listener whose accept queue is full, so the kernel drops
// further SYNs. Node accepts every connection at once; a Python socket that never calls accept()
// does not. Skipped, with a message, where python3 is missing.
const hasPython = spawnSync('python3', ['--version']).status === 0;
if (!hasPython) console.warn('SKIPPED: the connect timeout test (python3 is not on PATH)');

const LISTENER = `
import socket, sys, time
s = socket.socket()
s.bind(('127.0.0.1', 0))
s.listen(0)
print(s.getsockname()[1], flush=True)
time.sleep(120)
`;

let listener: ChildProcess;
let port: number;
const fillers: Socket[] = [];

beforeAll(async () => {
  if (!hasPython) return;
  listener = spawn('python3', ['-c', LISTENER], { stdio: ['ignore', 'pipe', 'inherit'] });
  port = await new Promise<number>((resolve) => listener.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  // Fill the accept queue: these connect (the kernel completes them), later ones hang in SYN_SENT.
  for (let i = 0; i < 4; i += 1) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    fillers.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
});

afterAll(() => {
  for (const socket of fillers) socket.destroy();
  listener?.kill();
});

describe.skipIf(!hasPython)('RegistryHttp connect timeout', () => {
  it('gives up on a connection that does not open within connectTimeoutMs, and retries it', async () => {
    const http = new RegistryHttp(resolveRegistrySettings({ url: `http://127.0.0.1:${port}`, connectTimeoutMs: 300, responseTimeoutMs: 60_000, retries: 1, backoffBaseMs: 10 }));
    const started = performance.now();
    const result = await http.get(`http://127.0.0.1:${port}/pkg`, { maxBytes: 1000 });
    http.close();
    expect(result).toMatchObject({ kind: 'unavailable', reason: 'timeout', attempts: 2 });
    expect(result.kind === 'unavailable' && result.detail).toBe(`no connection to 127.0.0.1:${port} within 300 ms`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
  });
});

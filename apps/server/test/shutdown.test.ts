import { EventEmitter } from 'node:events';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { installGracefulShutdown } from '../src/platform/http/shutdown.js';
import { startServer } from './harness.js';

describe('graceful shutdown', () => {
  it('SIGTERM lets an in-flight request finish, refuses new connections, cleans up and exits 0', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const server = await startServer({
      register: (app) =>
        app.get('/test/in-flight', async () => {
          entered();
          await gate;
          return { finished: true };
        }),
    });
    const signals = new EventEmitter();
    const events: string[] = [];
    let exited!: (code: number) => void;
    const exitCode = new Promise<number>((resolve) => (exited = resolve));
    const uninstall = installGracefulShutdown({
      app: server.app,
      emitter: signals,
      graceMs: 10_000,
      cleanup: async () => {
        events.push('cleanup');
        await server.database.close();
      },
      exit: (code) => {
        events.push(`exit ${code}`);
        exited(code);
      },
    });
    try {
      const inFlight = fetch(`${server.url}/test/in-flight`);
      await inside;
      signals.emit('SIGTERM', 'SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Draining: no longer listening, not yet exited.
      expect(server.app.server.listening).toBe(false);
      expect(events).toEqual([]);
      await expect(fetch(`${server.url}/v1/health`)).rejects.toThrow();
      release();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ finished: true });
      expect(await exitCode).toBe(0);
      expect(events).toEqual(['cleanup', 'exit 0']);
    } finally {
      uninstall();
      release();
    }
  });

  it('a second signal exits 1 at once', async () => {
    const server = await startServer({
      register: (app) => app.get('/test/stuck', () => new Promise(() => undefined)),
    });
    const signals = new EventEmitter();
    const codes: number[] = [];
    const uninstall = installGracefulShutdown({
      app: server.app,
      emitter: signals,
      graceMs: 10_000,
      cleanup: () => server.database.close(),
      exit: (code) => codes.push(code),
    });
    try {
      const stuck = fetch(`${server.url}/test/stuck`).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      signals.emit('SIGINT', 'SIGINT');
      signals.emit('SIGINT', 'SIGINT');
      expect(codes).toEqual([1]);
      server.app.server.closeAllConnections();
      await stuck;
    } finally {
      uninstall();
    }
  });

  it('keep-alive clients between requests are never reset: they get Connection: close, then a refused connect', async () => {
    const server = await startServer({ config: { rateLimitPerMinute: 100_000 } });
    const signals = new EventEmitter();
    let exited!: (code: number) => void;
    const exitCode = new Promise<number>((resolve) => (exited = resolve));
    let cleanedUp = false;
    const uninstall = installGracefulShutdown({
      app: server.app,
      emitter: signals,
      graceMs: 10_000,
      // Generous for a loaded CI machine: the drain ends as soon as the last connection has closed.
      drainIdleMs: 3_000,
      cleanup: async () => {
        cleanedUp = true;
        await server.database.close();
      },
      exit: (code) => exited(code),
    });
    const errors: string[] = [];
    const closes: number[] = [];
    let stop = false;
    let connectedCount = 0;
    const client = async () => {
      let connected = false;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (!stop) {
          const outcome = await new Promise<string>((resolve) => {
            const request = http.get(`${server.url}/v1/health`, { agent }, (response) => {
              if (response.headers.connection === 'close') closes.push(1);
              response.resume();
              response.on('end', () => resolve('ok'));
            });
            request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
          });
          if (outcome === 'ok' && !connected) {
            connected = true;
            connectedCount += 1;
          }
          if (outcome !== 'ok') {
            errors.push(outcome);
            return;
          }
          // Between requests, as a polling client is most of the time.
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        agent.destroy();
      }
    };
    try {
      const clients = Array.from({ length: 20 }, () => client());
      // Every client holds an open keep-alive connection before the signal: a connect still in the
      // kernel's backlog when the listener closes is reset by the kernel, which no drain can prevent.
      while (connectedCount < 20) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 50));
      signals.emit('SIGTERM', 'SIGTERM');
      expect(await exitCode).toBe(0);
      stop = true;
      await Promise.all(clients);
      expect(cleanedUp).toBe(true);
      expect(errors.filter((code) => code !== 'ECONNREFUSED')).toEqual([]);
      expect(closes.length).toBeGreaterThan(0);
    } finally {
      stop = true;
      uninstall();
    }
  });
});

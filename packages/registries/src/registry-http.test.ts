import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryHttp } from './registry-http.js';
import { resolveRegistrySettings } from './registry-settings.js';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('RegistryHttp', () => {
  it('leaves no listener behind on a kept-alive socket, however many requests it carries', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const http = new RegistryHttp(resolveRegistrySettings({ url, concurrency: 1 }));
    try {
      for (let i = 0; i < 30; i += 1) expect((await http.get(`${url}/x`, { maxBytes: 100 })).kind).toBe('response');
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      http.close();
      process.off('warning', onWarning);
    }
  });

  it('refuses settings that make no sense', () => {
    expect(() => resolveRegistrySettings({ url: 'ftp://x' })).toThrow('http or https only');
    expect(() => resolveRegistrySettings({ url: 'not a url' })).toThrow('not a URL');
    expect(() => resolveRegistrySettings({ url, concurrency: 0 })).toThrow('registry concurrency');
    expect(resolveRegistrySettings({ url: `${url}/mirror/npm/`, retries: 0 })).toMatchObject({ url: `${url}/mirror/npm`, retries: 0, maxArtifactBytes: 64 * 1024 * 1024 });
  });
});

import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedLookupWith, refusedAddress, refusedTarget } from './refused-target.js';

describe('which URLs a connector never requests', () => {
  it('refuses link-local, unspecified and cloud metadata addresses, in every spelling', () => {
    for (const address of ['169.254.169.254', '169.254.0.1', '0.0.0.0', 'fe80::1', 'FEBF::1', '::', 'fd00:ec2::254', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe']) {
      expect(refusedAddress(address), address).not.toBeNull();
    }
    // Loopback and private addresses are where company mirrors live.
    for (const address of ['127.0.0.1', '10.0.0.5', '192.168.1.1', '172.16.0.1', '::1', 'fd12::1', '8.8.8.8', '::ffff:127.0.0.1', 'fec0::1']) {
      expect(refusedAddress(address), address).toBeNull();
    }
  });

  it('refuses URLs with credentials or naming a metadata host', () => {
    expect(refusedTarget(new URL('http://u:p@registry.example/x.tgz'))).toMatch(/user name or password/);
    expect(refusedTarget(new URL('http://u@registry.example/x.tgz'))).toMatch(/user name or password/);
    expect(refusedTarget(new URL('http://169.254.169.254/latest/meta-data'))).toMatch(/link-local/);
    expect(refusedTarget(new URL('http://[fe80::1]:8080/'))).toMatch(/link-local/);
    expect(refusedTarget(new URL('http://[::ffff:169.254.169.254]/'))).toMatch(/link-local/);
    expect(refusedTarget(new URL('http://metadata.google.internal./computeMetadata/v1/'))).toMatch(/metadata host/);
    expect(refusedTarget(new URL('https://files.pythonhosted.org/packages/x.whl'))).toBeNull();
    expect(refusedTarget(new URL('http://127.0.0.1:4873/x'))).toBeNull();
  });
});

describe('a host name that resolves to a refused address', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  const get = (answer: string) =>
    new Promise<string>((resolve) => {
      const lookup = checkedLookupWith((_hostname, _options, callback) => callback(null, [{ address: answer, family: answer.includes(':') ? 6 : 4 }]));
      // A fresh connection each time: a kept-alive socket would skip the lookup under test.
      const req = request(`http://registry.test:${port}/`, { lookup, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
      req.end();
    });

  it('connects when the name resolves to an allowed address, fails before connecting otherwise', async () => {
    expect(await get('127.0.0.1')).toBe('reached');
    expect(await get('169.254.169.254')).toBe('error EREFUSEDADDRESS');
    expect(await get('::ffff:169.254.169.254')).toBe('error EREFUSEDADDRESS');
  });
});

/**
 * The cooldown (docs/firewall.md "Filtering packuments"): versions younger than `cooldownHours` by
 * the packument's `time` are hidden. An upstream serving one packument with known times; Vigil is
 * unreachable (mode fail-open), so only the cooldown hides anything.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFirewall, type DecisionLogEntry, type Firewall } from '../src/index.js';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString();
const packument = {
  name: 'cool',
  'dist-tags': { latest: '1.2.0', next: '2.0.0-rc.1' },
  versions: Object.fromEntries(['1.0.0', '1.1.0', '1.2.0', '2.0.0-rc.1'].map((v) => [v, { name: 'cool', version: v, dist: { tarball: `http://upstream/cool/-/cool-${v}.tgz`, integrity: `sha512-${v}` } }])),
  time: { created: hoursAgo(100), modified: hoursAgo(1), '1.0.0': hoursAgo(100), '1.1.0': hoursAgo(30), '1.2.0': hoursAgo(2), '2.0.0-rc.1': hoursAgo(1) },
};
let upstream: ReturnType<typeof createServer>;
let url: string;
const started: Firewall[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (req.url === '/cool') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const fw of started) await fw.close();
  upstream.closeAllConnections();
  await new Promise<void>((r) => upstream.close(() => r()));
});

async function firewall(cooldownHours: number) {
  const log: DecisionLogEntry[] = [];
  const fw = await startFirewall({ npmUpstream: url, vigilUrl: 'http://127.0.0.1:9', apiKey: 'vgl_00000000_000000000000000000000000000000000000000000000000', mode: 'fail-open', vigilTimeoutMs: 500, cooldownHours, now: () => NOW, onDecision: (e) => log.push(e) });
  started.push(fw);
  return { fw, log };
}

describe('cooldown', () => {
  it('hides versions younger than cooldownHours; latest rolls back; other tags on hidden versions go', async () => {
    const { fw, log } = await firewall(24);
    const doc = (await (await fetch(`${fw.url}/cool`, { headers: { accept: 'application/vnd.npm.install-v1+json' } })).json()) as typeof packument;
    expect(Object.keys(doc.versions)).toEqual(['1.0.0', '1.1.0']);
    expect(doc['dist-tags']).toEqual({ latest: '1.1.0' });
    expect(Object.keys(doc.time)).toEqual(['created', 'modified', '1.0.0', '1.1.0']);
    expect(doc.versions['1.0.0']!.dist).toEqual({ tarball: `${fw.url}/cool/-/cool-1.0.0.tgz`, integrity: 'sha512-1.0.0' });
    expect(log).toEqual([
      expect.objectContaining({
        decision: 'filter',
        reason: '2 of 4 versions hidden',
        hidden: [
          { version: '1.2.0', reason: `cooldown: published ${hoursAgo(2)}, less than 24 h ago` },
          { version: '2.0.0-rc.1', reason: `cooldown: published ${hoursAgo(1)}, less than 24 h ago` },
        ],
      }),
    ]);
  });

  it('every version younger: the packument is refused with the reason; cooldown 0 hides nothing', async () => {
    const strict = await firewall(200);
    const refused = await fetch(`${strict.fw.url}/cool`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ package: 'cool', version: null, decision: 'block', reason: 'every version is hidden (cooldown 200 h)' });
    const off = await firewall(0);
    const doc = (await (await fetch(`${off.fw.url}/cool`)).json()) as typeof packument;
    expect(Object.keys(doc.versions)).toEqual(['1.0.0', '1.1.0', '1.2.0', '2.0.0-rc.1']);
    expect(doc['dist-tags']).toEqual({ latest: '1.2.0', next: '2.0.0-rc.1' });
  });
});

/**
 * The demo as a validator operator meets it: `seed --demo`, add one's own hotkey with a permit to the
 * metagraph snapshot, register, lease tasks, download every artifact and agent bundle, look up
 * threat intel. Every task must be runnable for real, and nothing a validator receives may tell the
 * benchmark (labeled) artifacts from the live ones.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { SignedVigilClient, keypairFromSeed } from '@vigil/client';
import { TaskClaim, ThreatIntel, ValidatorRegistration, type LeasedTask, type MetagraphSnapshot } from '@vigil/core';
import { signRequest, signedRequestHeaders } from '@vigil/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/seed/demo.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';

const OPERATOR = keypairFromSeed('e7'.repeat(32));
const sha256Of = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

interface Received {
  kind: 'labeled' | 'live';
  task: LeasedTask;
  artifactHeaders: Record<string, string>;
  bundleHeaders: Record<string, string>;
  intel: ThreatIntel;
}

describe('the demo, run by a validator', () => {
  let e: NetworkApp;
  const received: Received[] = [];

  beforeAll(async () => {
    e = await startNetworkApp({ snapshot: { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [] } });
    await seedDemo(e.database.db, { now: new Date(), blobs: e.blobs, metagraphFile: e.metagraphFile });
    // What docs/protocol.md tells an operator to do: give their own hotkey a permit in the snapshot.
    const snapshot = JSON.parse(await readFile(e.metagraphFile, 'utf8')) as MetagraphSnapshot;
    snapshot.neurons.push({ uid: 200, hotkey: OPERATOR.hotkey, validator_permit: true });
    await writeFile(e.metagraphFile, JSON.stringify(snapshot));

    const client = new SignedVigilClient({ baseUrl: e.baseUrl, keypair: OPERATOR });
    await client.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });

    // A validator fetches each artifact and bundle once; timestamps step back a second per request
    // (within the freshness window) so no two requests share a signature.
    const downloads = new Map<string, Promise<{ bytes: Uint8Array; headers: Record<string, string> }>>();
    let tick = 0;
    const download = (path: string) => {
      let pending = downloads.get(path);
      if (pending === undefined) {
        pending = fetchSigned(path);
        downloads.set(path, pending);
      }
      return pending;
    };
    const fetchSigned = async (path: string) => {
      const timestamp = Math.floor(Date.now() / 1000) - (tick++ % 100);
      const signed = signRequest({ audience: e.app.serverIdentity.publicKeyHex, method: 'GET', pathWithQuery: path, secretKey: OPERATOR.secretKey, timestamp });
      const response = await fetch(`${e.baseUrl}${path}`, { headers: signedRequestHeaders(signed) });
      expect(response.status, path).toBe(200);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { bytes: new Uint8Array(await response.arrayBuffer()), headers };
    };
    const kinds = new Map(
      (await e.database.db.selectFrom('artifacts').select(['bundle_hash', 'kind']).execute()).map((a) => [a.bundle_hash, a.kind]),
    );
    const intels = new Map<string, ThreatIntel>();
    for (;;) {
      const claim = await client.request('POST', '/v1/validators/tasks/claim', { max: 100 }, { schema: TaskClaim });
      if (claim.tasks.length === 0) break;
      for (const task of claim.tasks) {
        const artifact = await download(`/v1/validators/artifacts/${task.artifact.sha256}`);
        expect(sha256Of(artifact.bytes)).toBe(task.artifact.sha256);
        // A real archive an agent can open.
        expect(gunzipSync(artifact.bytes).subarray(257, 262).toString('latin1')).toBe('ustar');
        const bundle = await download(`/v1/validators/agents/${task.agent_hash}/bundle`);
        expect(sha256Of(bundle.bytes)).toBe(task.agent_hash);
        expect(JSON.parse(Buffer.from(bundle.bytes).toString('utf8'))).toMatchObject({ format: 'vigil-agent-bundle/1', entrypoint: 'agent.py' });
        let intel = intels.get(task.artifact.sha256);
        if (intel === undefined) {
          intel = await client.request('GET', `/v1/validators/threat-intel/${task.artifact.sha256}`, undefined, { schema: ThreatIntel });
          intels.set(task.artifact.sha256, intel);
        }
        received.push({
          kind: kinds.get(task.artifact.bundle_hash)!,
          task,
          artifactHeaders: artifact.headers,
          bundleHeaders: bundle.headers,
          intel,
        });
      }
    }
  }, 600_000);

  afterAll(async () => e?.close());

  it('leases tasks of both kinds and downloads every artifact and agent bundle, hashes verified', () => {
    expect(received.filter((r) => r.kind === 'labeled').length).toBeGreaterThan(20);
    expect(received.filter((r) => r.kind === 'live').length).toBeGreaterThan(20);
  });

  it('no field a validator receives separates labeled from live artifacts', () => {
    // Each field is reduced to a class (its value where the value is categorical, otherwise its
    // shape: type, emptiness). A field separates the two sets when their classes do not overlap.
    const VOLATILE = new Set(['date', 'x-request-id', 'content-length', 'etag', 'last-modified']);
    const classes = (r: Received): Record<string, string> => {
      const [track, label] = r.task.artifact.bundle_hash.split('/');
      const out: Record<string, string> = {
        'task.keys': Object.keys(r.task).sort().join(','),
        'task.artifact.keys': Object.keys(r.task.artifact).sort().join(','),
        'task.artifact.bundle_hash.track+label': `${track}/${label}`,
        'task.lease_expires_at': typeof r.task.lease_expires_at,
        'intel.keys': Object.keys(r.intel).sort().join(','),
        'intel.bundle_hashes.length': String(r.intel.bundle_hashes.length),
        'intel.verdict.null': String(r.intel.verdict === null),
        'intel.verdict_updated_at.null': String(r.intel.verdict_updated_at === null),
        'intel.findings.empty': String(r.intel.findings.length === 0),
      };
      for (const [name, headers] of [['artifact', r.artifactHeaders], ['bundle', r.bundleHeaders]] as const) {
        out[`${name}.header-names`] = Object.keys(headers).filter((h) => !VOLATILE.has(h)).sort().join(',');
        for (const [header, value] of Object.entries(headers)) if (!VOLATILE.has(header)) out[`${name}.header.${header}`] = value;
      }
      return out;
    };
    const byKind = { labeled: new Map<string, Set<string>>(), live: new Map<string, Set<string>>() };
    for (const r of received) {
      for (const [field, value] of Object.entries(classes(r))) {
        const seen = byKind[r.kind].get(field) ?? new Set<string>();
        seen.add(value);
        byKind[r.kind].set(field, seen);
      }
    }
    expect([...byKind.labeled.keys()].sort()).toEqual([...byKind.live.keys()].sort());
    const separating = [...byKind.labeled.keys()].filter((field) => {
      const live = byKind.live.get(field)!;
      return ![...byKind.labeled.get(field)!].some((value) => live.has(value));
    });
    expect(separating).toEqual([]);
    // Labels are the stronger case: the same values occur in both sets.
    const labels = 'task.artifact.bundle_hash.track+label';
    expect([...byKind.labeled.get(labels)!].sort()).toEqual([...byKind.live.get(labels)!].sort());
  });
});

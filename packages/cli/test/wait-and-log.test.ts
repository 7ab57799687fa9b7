/**
 * `vigil verify --wait`, `verify-repo --wait` and `vigil attestation verify --log` against a real
 * server (the demo, whose closed rounds have winners: an upload gets fast tasks at once,
 * docs/rounds.md "Verdicts between rounds"), with a local npm registry that has nothing (every fetch
 * fails `not_found`) and a proxy that alters the proofs the server sends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignedVigilClient, keypairFromSeed, type VigilKeypair } from '@vigil/client';
import { AttestationReceipt, TaskClaim, ValidatorRegistration, formatOffsetTimestamp, type AttestationPayload, type MetagraphSnapshot } from '@vigil/core';
import { fromHex, signAttestation } from '@vigil/crypto';
import { formatVerifierKey } from '@vigil/tlog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuilt, startVigilServer, type VigilServer } from '../../../test-support/vigil-server.js';
import { CLI_BIN, json, vigil, type CliResult } from './support/cli.js';

let server: VigilServer;
let registry: Server;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'vigil-cli-wait-'));
const run = (args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> => vigil(args, { env: { ...env, ...extraEnv } });
const VALIDATORS: VigilKeypair[] = ['c1', 'c2', 'c3'].map((b) => keypairFromSeed(b.repeat(32)));
const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** `vigil …` in the background: the child, its output so far, and its exit. */
function background(args: string[]) {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, ...out })));
  return { child, out, exited };
}

async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function upload(name: string): Promise<string> {
  const file = join(dir, `${name}.bin`);
  writeFileSync(file, `vigil cli --wait ${name} ${unique} ${Math.random()}\n`);
  const purl = `pkg:npm/${name}-${unique}@1.0.0`;
  const result = await run(['artifacts', 'upload', file, '--track', 'packages', '--package', purl, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return purl;
}

/** Each validator claims the fast tasks of `sha256` (the incumbents' round) and attests them BLOCK over the protocol. */
async function attestAll(sha256: string): Promise<number> {
  let attested = 0;
  for (const validator of VALIDATORS) {
    const client = new SignedVigilClient({ baseUrl: server.baseUrl, keypair: validator });
    const claim = await client.request('POST', '/v1/validators/tasks/claim', { track: 'packages', max: 100 }, { schema: TaskClaim });
    for (const task of claim.tasks.filter((t) => t.artifact.sha256 === sha256)) {
      await client.download(`/v1/validators/artifacts/${task.artifact.sha256}`);
      const payload: AttestationPayload = {
        round_id: claim.round!.round_id,
        task_id: task.task_id,
        track: 'packages',
        miner_hotkey: task.miner_hotkey,
        agent_hash: task.agent_hash,
        artifact: task.artifact,
        verdict: 'BLOCK',
        risk_score: 91,
        findings: [{ type: 'static', category: 'install_script', severity: 'CRIT', title: 'pipes a download to a shell', file: 'package/package.json' }],
        policy_version: claim.round!.policy_version,
        validator_hotkey: validator.hotkey,
        created_at: formatOffsetTimestamp(Date.now()),
      };
      await client.request('POST', '/v1/validators/attestations', signAttestation(payload, validator.secretKey), { schema: AttestationReceipt });
      attested++;
    }
  }
  return attested;
}

describe.skipIf(!serverBuilt)('vigil --wait and attestation verify --log against a real server', () => {
  beforeAll(async () => {
    // A registry with nothing in it: every on-demand fetch ends `not_found` at once.
    registry = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}'));
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const port = (registry.address() as { port: number }).port;
    server = await startVigilServer({ env: { VIGIL_REGISTRY_FETCH: 'true', VIGIL_NPM_REGISTRY_URL: `http://127.0.0.1:${port}` } });
    env = { VIGIL_BASE_URL: server.baseUrl, VIGIL_API_TOKEN: server.paidKey };
    // Three validators of our own, with permits, registered: enough for a fast task's quorum.
    const snapshot = server.metagraph() as MetagraphSnapshot;
    snapshot.neurons.push(...VALIDATORS.map((v, i) => ({ uid: 240 + i, hotkey: v.hotkey, validator_permit: true })));
    writeFileSync(join(dir, 'metagraph.json'), JSON.stringify(snapshot));
    const uploaded = await run(['admin', 'metagraph', 'upload', join(dir, 'metagraph.json')]);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    for (const v of VALIDATORS) {
      await new SignedVigilClient({ baseUrl: server.baseUrl, keypair: v }).request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
    }
  }, 660_000);
  afterAll(async () => {
    await server?.stop();
    registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--wait gives up at --timeout and answers as without it; then waits for the verdict the incumbents publish', async () => {
    const purl = await upload('cli-wait-decided');
    const timedOut = await run(['verify', purl, '--wait', '--timeout', '2s']);
    expect(timedOut.code, timedOut.stderr).toBe(4); // pending counts as WARN
    expect(timedOut.stderr).toContain('vigil: waiting for 1 of 1 verdict (1 evaluating); 0 s elapsed\n');
    expect(timedOut.stderr).toMatch(/^vigil: timed out after 2 s: still waiting for 1 of 1 verdict \(1 evaluating\)$/m);
    expect(timedOut.stdout).toMatch(/pending \(queued\)/);
    expect((await run(['verify', purl, '--wait', '--timeout', '1s', '--fail-on', 'block'])).code).toBe(0);

    const waiting = background(['verify', purl, '--wait', '--timeout', '3m', '--json']);
    await until('the first progress line', () => waiting.out.stderr.includes('waiting for 1 of 1 verdict'));
    const sha256 = ((await run(['artifacts', 'list', '--purl', purl, '--json']).then((r) => json<{ artifacts: { sha256: string }[] }>(r))).artifacts[0]!).sha256;
    expect(await attestAll(sha256)).toBeGreaterThanOrEqual(VALIDATORS.length);
    const done = await waiting.exited;
    expect(done.code, done.stderr).toBe(5); // BLOCK
    // The final answer exactly as the server sent it, one document.
    expect(json(done)).toMatchObject({ state: 'decided', verdict: 'BLOCK' });
    expect(done.stderr).not.toMatch(/timed out/);
  });

  it('--wait ends when the registry fetch fails, for verify and verify-repo', async () => {
    const missing = `pkg:npm/cli-wait-missing-${unique}@1.0.0`;
    const result = await run(['verify', missing, '--wait', '--timeout', '2m']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stdout).toMatch(/pending \(fetch failed: not_found: /);
    expect(result.stderr).toMatch(/^vigil: waiting for 1 of 1 verdict \(1 fetching\); 0 s elapsed$/m);
    expect(result.stderr).not.toMatch(/timed out/);

    const repo = mkdtempSync(join(dir, 'repo-'));
    const name = `cli-wait-repo-missing-${unique}`;
    writeFileSync(
      join(repo, 'package-lock.json'),
      JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'app', version: '1.0.0', dependencies: { [name]: '1.0.0' } }, [`node_modules/${name}`]: { version: '1.0.0', resolved: `https://registry.npmjs.org/${name}/-/${name}-1.0.0.tgz` } } }),
    );
    const verified = await run(['verify-repo', repo, '--wait', '--timeout', '2m', '--json']);
    expect(verified.code, verified.stderr).toBe(4);
    const body = json<{ dependencies: { purl: string; fetch?: { state: string } }[] }>(verified);
    expect(body.dependencies).toContainEqual(expect.objectContaining({ purl: `pkg:npm/${name}@1.0.0`, fetch: expect.objectContaining({ state: 'failed' }) }));
  });

  it('usage: --timeout needs --wait, and a duration', async () => {
    expect(await run(['verify', 'pkg:npm/x@1.0.0', '--timeout', '5m'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: --timeout: only with --wait$/m) });
    expect(await run(['verify', 'pkg:npm/x@1.0.0', '--wait', '--timeout', 'soon'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--timeout: expected a duration/) });
  });

  it('Ctrl-C while waiting exits 130 with nothing on stdout', async () => {
    const purl = await upload('cli-wait-interrupted');
    const waiting = background(['verify', purl, '--wait']);
    await until('the first progress line', () => waiting.out.stderr.includes('waiting for 1 of 1 verdict'));
    waiting.child.kill('SIGINT');
    const done = await waiting.exited;
    expect(done.code).toBe(130);
    expect(done.stdout).toBe('');
    expect(done.stderr).toMatch(/^vigil: interrupted: stopped waiting; nothing printed$/m);
  });

  describe('attestation verify --log', () => {
    let envelopeFile: string;
    let metagraphFile: string;
    let canonicalHash: string;
    let origin: string;
    let pinned: string;

    beforeAll(async () => {
      // A demo attestation by a validator that holds a permit in the demo's snapshot: genuine.
      const snapshot = server.metagraph() as MetagraphSnapshot;
      const permitted = new Set(snapshot.neurons.filter((n) => n.validator_permit).map((n) => n.hotkey));
      const list = json<{ attestations: { canonical_hash: string; validator_hotkey: string }[] }>(await run(['attestations', 'list', '--page-size', '100', '--json']));
      canonicalHash = list.attestations.find((a) => permitted.has(a.validator_hotkey))!.canonical_hash;
      const detail = json<{ envelope: unknown; log_proof?: string }>(await run(['attestations', 'get', canonicalHash, '--json']));
      envelopeFile = join(dir, 'envelope.json');
      writeFileSync(envelopeFile, JSON.stringify(detail.envelope));
      metagraphFile = join(dir, 'demo-metagraph.json');
      writeFileSync(metagraphFile, JSON.stringify(snapshot));
      const hotkey = (await run(['identity'])).stdout.trim();
      origin = `vigil/${hotkey}`;
      pinned = formatVerifierKey(origin, fromHex(hotkey));
    });

    it('checks a real attestation’s inclusion, with the pinned key or the server identity’s', async () => {
      const ok = await run(['attestation', 'verify', envelopeFile, '--metagraph', metagraphFile, '--log', '--log-key', pinned, '--json']);
      expect(ok.code, ok.stderr).toBe(0);
      expect(json(ok)).toMatchObject({ ok: true, log: { ok: true, failure: null, origin, log_key: pinned, log_key_source: 'pinned', index: expect.any(Number), tree_size: expect.any(Number) } });
      const derived = await run(['attestation', 'verify', envelopeFile, '--metagraph', metagraphFile, '--log']);
      expect(derived.code, derived.stderr).toBe(0);
      expect(derived.stdout).toMatch(/^log inclusion +ok$/m);
      expect(derived.stdout).toContain(`${pinned} (from GET /v1/server-identity: not pinned)`);
    });

    it('refuses a checkpoint signed by another key than the pinned one (exit 8)', async () => {
      const other = formatVerifierKey(origin, new Uint8Array(32).fill(3));
      const refused = await run(['attestation', 'verify', envelopeFile, '--metagraph', metagraphFile, '--log', '--log-key', other]);
      expect(refused.code, refused.stderr).toBe(8);
      expect(refused.stdout).toMatch(/^log inclusion +FAILED \(bad checkpoint signature\)$/m);
    });

    it('refuses a proof altered on the way (exit 7) and a missing entry (exit 6), through a proxy', async () => {
      let mode: 'hash' | 'none' = 'hash';
      const target = new URL(server.baseUrl);
      const proxy = createServer((req, res) => {
        const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            let body = Buffer.concat(chunks);
            if (req.url?.includes('proof=true') && answer.statusCode === 200) {
              const parsed = JSON.parse(body.toString()) as { log_proof: string | null; log_entry: string | null };
              if (mode === 'none') Object.assign(parsed, { log_proof: null, log_entry: null });
              else {
                // Replace the first proof hash (the leaf's sibling) with another 32-byte hash.
                const lines = parsed.log_proof!.split('\n');
                const at = lines.findIndex((l) => l.startsWith('index ')) + 1;
                lines[at] = lines[at] === '' ? lines[at]! : Buffer.alloc(32, 0xab).toString('base64');
                if (lines[at] === '') lines.splice(at, 0, Buffer.alloc(32, 0xab).toString('base64'));
                parsed.log_proof = lines.join('\n');
              }
              body = Buffer.from(JSON.stringify(parsed));
            }
            const headers = { ...answer.headers, 'content-length': String(body.length) };
            res.writeHead(answer.statusCode ?? 502, headers).end(body);
          });
        });
        req.pipe(upstream);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const viaProxy = { VIGIL_BASE_URL: `http://127.0.0.1:${(proxy.address() as { port: number }).port}` };
      try {
        const tampered = await run(['attestation', 'verify', envelopeFile, '--metagraph', metagraphFile, '--log', '--log-key', pinned, '--json'], viaProxy);
        expect(tampered.code, tampered.stderr).toBe(7);
        expect(json(tampered)).toMatchObject({ ok: true, log: { ok: false, failure: 'bad_proof' } });
        mode = 'none';
        const absent = await run(['attestation', 'verify', envelopeFile, '--metagraph', metagraphFile, '--log', '--log-key', pinned], viaProxy);
        expect(absent.code, absent.stderr).toBe(6);
        expect(absent.stdout).toMatch(/^log inclusion +FAILED \(not in log\)$/m);
      } finally {
        proxy.close();
      }
    });

    it('usage: --log-key needs --log and a verifier key', async () => {
      expect(await run(['attestation', 'verify', envelopeFile, '--metagraph', metagraphFile, '--log-key', pinned])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--log-key: only with --log/) });
      expect(await run(['attestation', 'verify', envelopeFile, '--metagraph', metagraphFile, '--log', '--log-key', 'nope'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: --log-key: malformed verifier key/m) });
    });
  });
});

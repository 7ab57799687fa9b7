/**
 * `vigil verify --wait`, `verify-repo --wait` and `vigil attestation verify --log` against a real
 * server (the demo, whose closed rounds have winners: an upload gets fast tasks at once,
 * docs/rounds.md "Verdicts between rounds"), with a local npm registry that has nothing (every fetch
 * fails `not_found`) and a proxy that alters the proofs the server sends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignedVigilClient, keypairFromSeed, type VigilKeypair } from '@vigil/client';
import { AttestationReceipt, TaskClaim, ValidatorRegistration, formatOffsetTimestamp, type AttestationPayload, type MetagraphSnapshot } from '@vigil/core';
import { fromHex, getPublicKey, signAttestation } from '@vigil/crypto';
import { cosigner, formatVerifierKey, noteSigner, parseCheckpoint, signCheckpoint, signNote, SIGNATURE_TYPE_COSIGNATURE_V1 } from '@vigil/tlog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuilt, startVigilServer, type VigilServer } from '../../../test-support/vigil-server.js';
import { CLI_BIN, json, until, vigil, type CliResult } from './support/cli.js';

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

  describe('log monitor', () => {
    let pinned: string;
    let origin: string;
    const stateFile = join(dir, 'log-state.json');
    /** The state after the first run, before the log grew. */
    let firstState = '';

    /** A proxy in front of the server whose `rewrite` may replace an answer's body by path. */
    async function proxy(rewrite: (path: string, body: Buffer) => Buffer): Promise<{ env: Record<string, string>; close: () => void }> {
      const target = new URL(server.baseUrl);
      const listener = createServer((req, res) => {
        const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            const body = answer.statusCode === 200 ? rewrite(req.url ?? '', Buffer.concat(chunks)) : Buffer.concat(chunks);
            res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) }).end(body);
          });
        });
        req.pipe(upstream);
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      return { env: { VIGIL_BASE_URL: `http://127.0.0.1:${(listener.address() as { port: number }).port}` }, close: () => listener.close() };
    }

    /** The server's own checkpoint key (its identity seed, in its data directory): what a dishonest operator holds. */
    function operatorSigner() {
      const seed = Uint8Array.from(Buffer.from(readFileSync(join(server.dataDir, 'server-key'), 'utf8').trim(), 'hex'));
      return noteSigner(origin, seed);
    }

    interface Monitored {
      ok: boolean;
      failure: string | null;
      reason: string | null;
      previous: { size: number; root: string } | null;
      checkpoint: { size: number; root: string } | null;
      new_entries: number;
      entry_types: Record<string, number>;
      log_key_source: string;
    }

    beforeAll(async () => {
      const hotkey = (await run(['identity'])).stdout.trim();
      origin = `vigil/${hotkey}`;
      pinned = formatVerifierKey(origin, fromHex(hotkey));
    });

    it('reads the whole log on the first run, nothing new on the next, then only the entries appended since', async () => {
      const first = await run(['log', 'monitor', '--log-key', pinned, '--state', stateFile, '--json']);
      expect(first.code, first.stderr).toBe(0);
      const body = json<Monitored>(first);
      expect(body).toMatchObject({ ok: true, failure: null, previous: null, log_key_source: 'pinned' });
      expect(body.new_entries).toBe(body.checkpoint!.size);
      expect(body.entry_types['vigil.attestation/v1']).toBeGreaterThan(0);
      const kept = JSON.parse(readFileSync(stateFile, 'utf8')) as { logs: Record<string, { size: number; root: string; log_key: string }> };
      expect(kept.logs[origin]).toMatchObject({ size: body.checkpoint!.size, root: body.checkpoint!.root, log_key: pinned });
      firstState = readFileSync(stateFile, 'utf8');

      const again = await run(['log', 'monitor', '--state', stateFile]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^consistent$/m);
      expect(again.stdout).toMatch(/^new entries +0$/m);
      expect(again.stdout).toContain(`${pinned} (pinned in the state file (first run))`);

      // New attestations and the verdict they decide are appended; the monitor checks the consistency
      // proof from the size it kept and reads only the new entries.
      const purl = await upload('cli-log-monitor');
      const sha256 = ((await run(['artifacts', 'list', '--purl', purl, '--json']).then((r) => json<{ artifacts: { sha256: string }[] }>(r))).artifacts[0]!).sha256;
      const attested = await attestAll(sha256);
      expect(attested).toBeGreaterThan(0);
      const grown = await run(['log', 'monitor', '--log-key', pinned, '--state', stateFile, '--json']);
      expect(grown.code, grown.stderr).toBe(0);
      const after = json<Monitored>(grown);
      expect(after.previous).toEqual({ size: body.checkpoint!.size, root: body.checkpoint!.root });
      expect(after.checkpoint!.size).toBeGreaterThanOrEqual(body.checkpoint!.size + attested);
      expect(after.new_entries).toBe(after.checkpoint!.size - body.checkpoint!.size);
      expect(after.entry_types['vigil.attestation/v1']).toBeGreaterThanOrEqual(attested);
    });

    it('exits 9 on a split view or a rewritten history signed with the log key, and keeps its state', async () => {
      const before = readFileSync(stateFile, 'utf8');
      const kept = (JSON.parse(before) as { logs: Record<string, { size: number }> }).logs[origin]!;
      // The state of the first run, from before the log grew.
      const older = join(dir, 'log-state-older.json');
      writeFileSync(older, firstState);
      const olderSize = (JSON.parse(firstState) as { logs: Record<string, { size: number }> }).logs[origin]!.size;
      expect(olderSize).toBeLessThan(kept.size);
      const signer = operatorSigner();
      let forge: 'split' | 'rewrite' | 'ahead' = 'split';
      const forked = await proxy((path, body) => {
        if (!path.startsWith('/v1/log/checkpoint')) return body;
        const checkpoint = parseCheckpoint(body.toString().slice(0, body.toString().indexOf('\n\n') + 1));
        // Another tree, signed with the real key: what a log shows one client and not another. The
        // split view has the size the monitor kept (the scheduler may have grown the log since).
        const size = forge === 'split' ? kept.size : forge === 'ahead' ? checkpoint.size + 1_000 : checkpoint.size;
        return Buffer.from(signCheckpoint({ ...checkpoint, size, root: new Uint8Array(32).fill(7) }, [signer]));
      });
      try {
        const split = await run(['log', 'monitor', '--log-key', pinned, '--state', stateFile, '--json'], forked.env);
        expect(split.code, split.stderr).toBe(9);
        expect(json<Monitored>(split)).toMatchObject({ ok: false, failure: 'log_inconsistent', reason: expect.stringMatching(new RegExp(`^two signed checkpoints of size ${kept.size} with different roots`)) });
        // From the older state, the server's (honest) consistency proof does not lead to the forged root.
        forge = 'rewrite';
        const rewritten = await run(['log', 'monitor', '--state', older], forked.env);
        expect(rewritten.code, rewritten.stderr).toBe(9);
        expect(rewritten.stdout).toMatch(/^LOG INCONSISTENT$/m);
        expect(rewritten.stdout).toMatch(new RegExp(`^reason +the consistency proof from size ${olderSize} to size \\d+ does not verify`, 'm'));
        expect(rewritten.stdout).toContain(`${older} (unchanged)`);
        // A signed checkpoint of a size the server then says its log has not reached.
        forge = 'ahead';
        const ahead = await run(['log', 'monitor', '--state', older, '--json'], forked.env);
        expect(ahead.code, ahead.stderr).toBe(9);
        expect(json<Monitored>(ahead).reason).toMatch(/^the log signed a checkpoint of \d+ entries but answers that it has not reached that size/);
      } finally {
        forked.close();
      }
      expect(readFileSync(stateFile, 'utf8')).toBe(before);
      expect(readFileSync(older, 'utf8')).toBe(firstState);
      // The honest server still agrees with both.
      expect((await run(['log', 'monitor', '--state', stateFile])).code).toBe(0);
      expect((await run(['log', 'monitor', '--state', older])).code).toBe(0);
    });

    it('exits 9 when a tile or an entry is altered on the way, and 8 for a checkpoint signed by another key', async () => {
      const fresh = join(dir, 'log-state-fresh.json');
      let target: 'entry' | 'tile' | 'key' = 'entry';
      const other = noteSigner(origin, new Uint8Array(32).fill(9));
      const altered = await proxy((path, body) => {
        if (target === 'entry' && path === '/v1/log/tile/entries/000') {
          // One byte of the first entry's JSON: it still parses, it is no longer what was logged.
          const copy = Buffer.from(body);
          const at = copy.indexOf('"verdict":"') + '"verdict":"'.length;
          copy[at] = copy[at] === 0x41 ? 0x42 : 0x41;
          return copy;
        }
        if (target === 'tile' && path === '/v1/log/tile/0/000') {
          const copy = Buffer.from(body);
          copy[5] = copy[5]! ^ 0xff;
          return copy;
        }
        if (target === 'key' && path.startsWith('/v1/log/checkpoint')) {
          const text = body.toString().slice(0, body.toString().indexOf('\n\n') + 1);
          return Buffer.from(signCheckpoint(parseCheckpoint(text), [other]));
        }
        return body;
      });
      try {
        const entry = await run(['log', 'monitor', '--log-key', pinned, '--state', fresh, '--json'], altered.env);
        expect(entry.code, entry.stderr).toBe(9);
        expect(json<Monitored>(entry)).toMatchObject({ ok: false, failure: 'log_inconsistent', reason: expect.stringMatching(/: entry 0 of tile\/entries\/000 is not the entry the signed tree holds at that index/) });
        target = 'tile';
        const tile = await run(['log', 'monitor', '--log-key', pinned, '--state', fresh, '--json'], altered.env);
        expect(tile.code, tile.stderr).toBe(9);
        expect(json<Monitored>(tile).reason).toMatch(/^the tiles do not match the signed checkpoint of \d+ entries: /);
        target = 'key';
        const key = await run(['log', 'monitor', '--log-key', pinned, '--state', fresh], altered.env);
        expect(key.code, key.stderr).toBe(8);
        expect(key.stdout).toMatch(/^BAD CHECKPOINT SIGNATURE$/m);
      } finally {
        altered.close();
      }
      // Nothing was kept from the failed runs.
      expect(() => readFileSync(fresh, 'utf8')).toThrow();
    });

    it('--witness: passes when the checkpoint carries the witness cosignature, exits 10 without it and 8 for a forged one', async () => {
      const seed = new Uint8Array(32).fill(5);
      const witness = formatVerifierKey('witness.test/w1', getPublicKey(seed), SIGNATURE_TYPE_COSIGNATURE_V1);
      let mode: 'cosigned' | 'plain' | 'forged' = 'cosigned';
      // The served checkpoint with a cosignature line added, as a server with this witness configured serves it.
      const cosigning = await proxy((path, body) => {
        if (mode === 'plain' || !path.startsWith('/v1/log/checkpoint')) return body;
        const note = body.toString();
        const text = note.slice(0, note.indexOf('\n\n') + 1);
        let line = signNote(text, [cosigner('witness.test/w1', seed)]).split('\n').at(-2)!;
        if (mode === 'forged') line = `${line.slice(0, -4)}${line.at(-4) === 'A' ? 'B' : 'A'}${line.slice(-3)}`;
        return Buffer.from(`${note}${line}\n`);
      });
      try {
        const ok = await run(['log', 'monitor', '--log-key', pinned, '--state', stateFile, '--witness', witness, '--json'], cosigning.env);
        expect(ok.code, ok.stderr).toBe(0);
        expect(json<Monitored & { witness_cosignatures: string[] }>(ok).witness_cosignatures).toEqual(['witness.test/w1']);
        mode = 'plain';
        const missing = await run(['log', 'monitor', '--log-key', pinned, '--state', stateFile, '--witness', witness], cosigning.env);
        expect(missing.code, missing.stderr).toBe(10);
        expect(missing.stdout).toMatch(/^NOT WITNESSED$/m);
        expect(missing.stdout).toMatch(/^reason +the checkpoint has 0 cosignature\(s\) of the given witnesses, 1 required$/m);
        mode = 'forged';
        const forged = await run(['log', 'monitor', '--log-key', pinned, '--state', stateFile, '--witness', witness, '--json'], cosigning.env);
        expect(forged.code, forged.stderr).toBe(8);
        expect(json<Monitored>(forged).reason).toMatch(/^a witness cosignature of the checkpoint does not verify: /);
      } finally {
        cosigning.close();
      }
      expect(await run(['log', 'monitor', '--min-witnesses', '1'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--min-witnesses: only with --witness/) });
      expect(await run(['log', 'monitor', '--witness', witness, '--min-witnesses', '2'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--min-witnesses: 2 is more than the 1 --witness key\(s\) given/) });
      expect(await run(['log', 'monitor', '--witness', pinned])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: --witness: .*not a cosignature\/v1 \(type 0x04\) key/m) });
    });

    it('usage and state errors', async () => {
      expect(await run(['log', 'monitor', '--log-key', 'nope'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: --log-key: malformed verifier key/m) });
      const broken = join(dir, 'broken-state.json');
      writeFileSync(broken, '{"logs": {"x": {"origin": "y"}}}');
      // A state file that cannot be written (nothing can be created in /proc): said at once, naming --state, before the log is read.
      const unwritable = await run(['log', 'monitor', '--state', `/proc/vigil-state-${process.pid}.json`]);
      expect(unwritable).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(new RegExp(`^vigil: --state: /proc/vigil-state-${process.pid}\\.json: cannot write: ENOENT`, 'm')) });
      expect(await run(['log', 'monitor', '--state', broken])).toMatchObject({ code: 1, stderr: expect.stringMatching(/--state: .*broken-state\.json: the state of "x" is not a checkpoint the monitor wrote/) });
      const other = formatVerifierKey(origin, new Uint8Array(32).fill(3));
      expect(await run(['log', 'monitor', '--log-key', other, '--state', stateFile])).toMatchObject({ code: 1, stderr: expect.stringMatching(/the state file pins another key for vigil\/[0-9a-f]{64} \(.*\) than --log-key/) });
    });
  });
});

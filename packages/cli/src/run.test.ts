import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalHash, type AttestationPayload, type MetagraphSnapshot } from '@vigil/core';
import { generateSecretKey, getPublicKey, signAttestation, ss58Encode } from '@vigil/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from './run.js';

async function invoke(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
  return { code, stdout, stderr };
}

let dir: string;
let envelopePath: string;
let tamperedPath: string;
let snapshotPath: string;
let noPermitSnapshotPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-cli-'));
  const secretKey = generateSecretKey();
  const validator = ss58Encode(getPublicKey(secretKey));
  const miner = ss58Encode(getPublicKey(generateSecretKey()));
  const payload: AttestationPayload = {
    round_id: '0a1b2c3d4e5f6a7b',
    task_id: 'task_1',
    track: 'packages',
    miner_hotkey: miner,
    agent_hash: `sha256:${'a'.repeat(64)}`,
    artifact: { bundle_hash: 'packages/live/pkg:npm/left-pad@1.3.0', sha256: `sha256:${'b'.repeat(64)}` },
    verdict: 'BLOCK',
    risk_score: 91,
    findings: [{ type: 'static', category: 'exfiltration', severity: 'CRIT', title: 'posts ~/.npmrc to a remote host', file: 'index.js' }],
    policy_version: '2026.11.1',
    validator_hotkey: validator,
    created_at: '2026-11-21T10:00:00.000+00:00',
  };
  const envelope = signAttestation(payload, secretKey);
  const snapshot = (permit: boolean): MetagraphSnapshot => ({
    netuid: 76,
    block: 4_200_000,
    taken_at: '2026-11-21T09:00:00Z',
    neurons: [{ uid: 3, hotkey: validator, validator_permit: permit }],
  });
  envelopePath = join(dir, 'envelope.json');
  tamperedPath = join(dir, 'tampered.json');
  snapshotPath = join(dir, 'metagraph.json');
  noPermitSnapshotPath = join(dir, 'metagraph-no-permit.json');
  await writeFile(envelopePath, JSON.stringify(envelope));
  await writeFile(tamperedPath, JSON.stringify({ ...envelope, payload: { ...envelope.payload, verdict: 'ALLOW' } }));
  await writeFile(snapshotPath, JSON.stringify(snapshot(true)));
  await writeFile(noPermitSnapshotPath, JSON.stringify(snapshot(false)));
});

describe('vigil verify-attestation', () => {
  it('passes all three checks for a genuine attestation (exit 0)', async () => {
    const r = await invoke(['verify-attestation', envelopePath, '--metagraph', snapshotPath]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, checks: { hash: true, signature: true, permit: true }, reason: null });
  });

  it('exits 3 and names the failing check for a tampered payload', async () => {
    const r = await invoke(['verify-attestation', tamperedPath, '--metagraph', snapshotPath, '--compact']);
    expect(r.code).toBe(3);
    const result = JSON.parse(r.stdout);
    expect(result.ok).toBe(false);
    expect(result.checks.hash).toBe(false);
    expect(result.reason).toMatch(/hash/);
  });

  it('exits 3 when the validator holds no permit, with hash and signature intact', async () => {
    const r = await invoke(['verify-attestation', envelopePath, '--metagraph', noPermitSnapshotPath]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).checks).toEqual({ hash: true, signature: true, permit: false });
  });

  it('is a usage error (exit 2) without --metagraph, with a missing file, or with a file that is not JSON', async () => {
    expect((await invoke(['verify-attestation', envelopePath])).stderr).toMatch(/--metagraph: required/);
    const missing = await invoke(['verify-attestation', join(dir, 'nope.json'), '--metagraph', snapshotPath]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/envelope: cannot read .*nope\.json: ENOENT/);
    const notJson = join(dir, 'not.json');
    await writeFile(notJson, 'not json');
    const bad = await invoke(['verify-attestation', envelopePath, '--metagraph', notJson]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--metagraph: .*not JSON/);
  });
});

describe('vigil canonical-hash', () => {
  it('prints sha256 of the RFC 8785 form, independent of key order and whitespace', async () => {
    const file = join(dir, 'value.json');
    await writeFile(file, '{ "b": [1, 2.50], "a": "x" }');
    const r = await invoke(['canonical-hash', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ canonical_hash: canonicalHash({ a: 'x', b: [1, 2.5] }) });
  });
});

describe('vigil usage', () => {
  it('prints help with exit 0 for help and -h, and exit 2 with no command', async () => {
    expect((await invoke(['help'])).code).toBe(0);
    expect((await invoke(['-h'])).stdout).toMatch(/^vigil — the Vigil command line/);
    expect((await invoke([])).code).toBe(2);
  });

  it('rejects unknown commands, unknown flags and bad option values with exit 2', async () => {
    expect(await invoke(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown command "frobnicate"/) });
    expect((await invoke(['health', '--bogus'])).code).toBe(2);
    expect(await invoke(['trends', '--days', 'ten'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--days: expected an integer/) });
    expect(await invoke(['agents', '--track', 'pkgs'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--track: expected one of skills, mcp_servers, packages, repositories/) });
    expect(await invoke(['health', '--url', 'ftp://x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/options\.baseUrl/) });
  });

  it('exits 1 with the socket error when the server cannot be reached', async () => {
    // A port that was just free: nothing listens on it.
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
    });
    const r = await invoke(['health', '--url', `http://127.0.0.1:${port}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ECONNREFUSED/);
  });
});

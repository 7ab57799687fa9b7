import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKeypairFile } from '@vigil/client';
import { canonicalHash, type AttestationPayload, type MetagraphSnapshot } from '@vigil/core';
import { generateSecretKey, getPublicKey, signAttestation, ss58Encode } from '@vigil/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, vigil } from './support/cli.js';

let dir: string;
let envelopePath: string;
let tamperedPath: string;
let snapshotPath: string;
let noPermitSnapshotPath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-cli-'));
  const secretKey = generateSecretKey();
  const validator = ss58Encode(getPublicKey(secretKey));
  const payload: AttestationPayload = {
    round_id: '0a1b2c3d4e5f6a7b',
    task_id: 'task_1',
    track: 'packages',
    miner_hotkey: ss58Encode(getPublicKey(generateSecretKey())),
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
  const snapshot = (permit: boolean): MetagraphSnapshot => ({ netuid: 76, block: 4_200_000, taken_at: '2026-11-21T09:00:00Z', neurons: [{ uid: 3, hotkey: validator, validator_permit: permit }] });
  envelopePath = join(dir, 'envelope.json');
  tamperedPath = join(dir, 'tampered.json');
  snapshotPath = join(dir, 'metagraph.json');
  noPermitSnapshotPath = join(dir, 'metagraph-no-permit.json');
  writeFileSync(envelopePath, JSON.stringify(envelope));
  writeFileSync(tamperedPath, JSON.stringify({ ...envelope, payload: { ...envelope.payload, verdict: 'ALLOW' } }));
  writeFileSync(snapshotPath, JSON.stringify(snapshot(true)));
  writeFileSync(noPermitSnapshotPath, JSON.stringify(snapshot(false)));
});

describe('vigil attestation verify (offline)', () => {
  it('passes the three checks of a genuine envelope (exit 0), from a file or standard input', async () => {
    const r = await vigil(['attestation', 'verify', envelopePath, '--metagraph', snapshotPath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^genuine\n/);
    const piped = await vigil(['attestation', 'verify', '-', '--metagraph', snapshotPath, '--json'], { stdin: readFileSync(envelopePath, 'utf8') });
    expect(json(piped)).toEqual({ ok: true, checks: { hash: true, signature: true, permit: true }, reason: null });
  });

  it('exits 3 naming the failing check for a tampered payload and for a validator without permit', async () => {
    const tampered = await vigil(['verify-attestation', tamperedPath, '--metagraph', snapshotPath, '--json']);
    expect(tampered.code).toBe(3);
    expect(json(tampered)).toMatchObject({ ok: false, checks: { hash: false } });
    const noPermit = await vigil(['attestation', 'verify', envelopePath, '--metagraph', noPermitSnapshotPath]);
    expect(noPermit.code).toBe(3);
    expect(noPermit.stdout).toMatch(/NOT genuine/);
    expect(noPermit.stdout).toMatch(/validator permit\s+FAILED/);
  });

  it('keeps verify-attestation and --compact of earlier versions', async () => {
    const r = await vigil(['--compact', 'verify-attestation', envelopePath, '--metagraph', snapshotPath]);
    expect(r.stdout).toBe('{"ok":true,"checks":{"hash":true,"signature":true,"permit":true},"reason":null}\n');
  });

  it('is a usage error (exit 2) without --metagraph; an unreadable or non-JSON file is exit 1', async () => {
    expect(await vigil(['attestation', 'verify', envelopePath])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--metagraph: required/) });
    expect(await vigil(['attestation', 'verify', join(dir, 'nope.json'), '--metagraph', snapshotPath])).toMatchObject({ code: 1, stderr: expect.stringMatching(/envelope: cannot read .*nope\.json: ENOENT/) });
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, 'not json');
    expect(await vigil(['attestation', 'verify', envelopePath, '--metagraph', notJson])).toMatchObject({ code: 1, stderr: expect.stringMatching(/--metagraph: .*not JSON/) });
  });
});

describe('vigil canonical-hash', () => {
  it('prints sha256 of the RFC 8785 form, whatever the key order and whitespace', async () => {
    const file = join(dir, 'value.json');
    writeFileSync(file, '{ "b": [1, 2.50], "a": "x" }');
    const expected = canonicalHash({ a: 'x', b: [1, 2.5] });
    expect(await vigil(['canonical-hash', file])).toMatchObject({ code: 0, stdout: `${expected}\n` });
    expect(json(await vigil(['canonical-hash', file, '--json']))).toEqual({ canonical_hash: expected });
  });
});

describe('vigil usage and help', () => {
  it('prints help with examples for the program and for every command', async () => {
    const top = await vigil(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/Exit status: 0 success/);
    for (const command of [['verify-repo'], ['rounds', 'scores'], ['policy', 'create'], ['miner', 'submit'], ['completion'], ['login']]) {
      const r = await vigil([...command, '--help']);
      expect(r.code, command.join(' ')).toBe(0);
      expect(r.stdout, command.join(' ')).toMatch(/\nExamples:\n {2}\$ (vigil|source) /);
    }
    expect((await vigil([])).code).toBe(2);
  });

  it('refuses unknown commands, unknown options and bad values with exit 2', async () => {
    expect(await vigil(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown command 'frobnicate'/) });
    expect((await vigil(['health', '--bogus'])).code).toBe(2);
    expect(await vigil(['trends', '--days', 'ten'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--days: expected an integer from 1 to 180/) });
    expect(await vigil(['agents', '--track', 'pkgs'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--track: expected one of skills, mcp_servers, packages, repositories/) });
    expect(await vigil(['health', '--base-url', 'ftp://x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/base URL \(--base-url, VIGIL_BASE_URL\)/) });
    expect(await vigil(['verify-repo', '--fail-on', 'never'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--fail-on: expected one of warn, block/) });
    expect(await vigil(['keys', 'list'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs an API token/) });
  });

  it('exits 1 with the socket error when the server cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
    });
    const r = await vigil(['health'], { env: { VIGIL_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^vigil: connection failed: .*ECONNREFUSED.*\(request id [0-9a-f-]{36}\)/);
  });
});

describe('vigil completion', () => {
  it('prints a bash script that completes commands and options', async () => {
    const script = (await vigil(['completion', 'bash'])).stdout;
    const file = join(dir, 'vigil.bash');
    writeFileSync(file, script);
    const complete = (words: string[]) =>
      execFileSync('bash', ['-c', `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _vigil; echo "\${COMPREPLY[@]}"`], { encoding: 'utf8' }).trim().split(' ');
    expect(complete(['vigil', 'rounds', 's'])).toEqual(['status', 'scores']);
    expect(complete(['vigil', 'verify-repo', '--fa'])).toEqual(['--fail-on']);
    expect(complete(['vigil', 've'])).toEqual(['verify-attestation', 'verify', 'verify-repo']);
  });

  it('prints zsh and fish scripts, and refuses another shell', async () => {
    expect((await vigil(['completion', 'zsh'])).stdout).toMatch(/^#compdef vigil\n[\s\S]*compdef _vigil vigil\n$/);
    expect((await vigil(['completion', 'fish'])).stdout).toMatch(/complete -c vigil -n '__fish_seen_subcommand_from rounds; and not __fish_seen_subcommand_from list status scores attestations' -a scores/);
    expect((await vigil(['completion', 'tcsh'])).code).toBe(2);
  });
});

describe('vigil keygen', () => {
  it('writes a 0600 keyfile that parseKeypairFile reads, prints its ss58 address, and never overwrites silently', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vigil-keygen-'));
    const r = await vigil(['keygen'], { home });
    expect(r.code).toBe(0);
    const path = join(home, '.config', 'vigil', 'hotkey.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(parseKeypairFile(readFileSync(path, 'utf8')).hotkey).toBe(r.stdout.trim());
    expect(await vigil(['keygen'], { home })).toMatchObject({ code: 1, stderr: expect.stringMatching(/exists: pass --force/) });
    const out = join(home, 'other.json');
    const again = json(await vigil(['keygen', '--out', out, '--json'], { home }));
    expect(again).toMatchObject({ keyfile: out, hotkey: parseKeypairFile(readFileSync(out, 'utf8')).hotkey });
  });
});

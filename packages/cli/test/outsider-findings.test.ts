import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vigil } from './support/cli.js';

// What an outsider writing a client from docs/cli.md alone found (issue 11), each kept as a case of the built binary.
const TOKEN = `vgl_${'0'.repeat(8)}_${'0'.repeat(48)}`;
let dir: string;
let foreign: Server;
let foreignUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-cli-findings-'));
  // A web server that is not Vigil: an HTML 404 page over many lines, as a wrong --base-url answers.
  foreign = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end(`<!DOCTYPE html>\n<html>\n<head><title>404 Not Found</title></head>\n<body>\n${'<p>nothing here</p>\n'.repeat(40)}</body>\n</html>\n`);
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => foreign.close(() => resolve())));

describe('vigil: what an outsider found', () => {
  it('vigil help and vigil help <command> are --help: exit 0 with the help on stdout', async () => {
    const bare = await vigil(['help']);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain('Usage: vigil');
    const verify = await vigil(['help', 'verify']);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain('Usage: vigil verify');
    // A bare `vigil` is still a usage error.
    expect((await vigil([])).code).toBe(2);
  });

  it('vigil --help shows every global option of cli.md, --url, --api-key and --compact included', async () => {
    const help = (await vigil(['--help'])).stdout;
    for (const option of ['--base-url <url>', '--url <url>', '--token <token>', '--api-key <token>', '--profile <name>', '--json', '--compact', '--no-color', '--version']) expect(help).toContain(option);
  });

  it('a malformed package reference, --kind or --artifact is a usage error (exit 2) before anything is sent', async () => {
    const env = { VIGIL_BASE_URL: foreignUrl, VIGIL_API_TOKEN: TOKEN };
    const purl = await vigil(['verify', 'not a purl'], { env });
    expect(purl).toMatchObject({ code: 2, stdout: '' });
    expect(purl.stderr).toMatch(/^vigil: purl: whitespace is not allowed in a package reference, got "not a purl"\n\(run "vigil --help" for usage\)\n$/);
    expect((await vigil(['verify', 'npm:left-pad@1.3.0', 'left-pad'], { env })).stderr).toMatch(/^vigil: purl: expected pkg:<type>\/<name>\[@version\] or <type>:<name>\[@version\], got "left-pad"/);
    expect((await vigil(['policy', 'evaluate', 'nonsense'], { env })).code).toBe(2);
    const kind = await vigil(['search', 'x', '--kind', 'bogus'], { env });
    expect(kind).toMatchObject({ code: 2 });
    expect(kind.stderr).toMatch(/^vigil: --kind: expected one of artifact, attestation, got "bogus"/);
    const artifact = await vigil(['attestations', 'list', '--artifact', 'art_x'], { env });
    expect(artifact).toMatchObject({ code: 2 });
    expect(artifact.stderr).toMatch(/^vigil: --artifact: expected an artifact id art_<n> or <n>, got "art_x"/);
  });

  it('attestations list --artifact takes art_<n> and <n> alike and sends the number', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ attestations: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = { VIGIL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, VIGIL_API_TOKEN: TOKEN };
    try {
      expect((await vigil(['attestations', 'list', '--artifact', 'art_42'], { env })).code).toBe(0);
      expect((await vigil(['attestations', 'list', '--artifact', '42'], { env })).code).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(seen.map((url) => new URL(url, 'http://x').searchParams.get('artifact'))).toEqual(['42', '42']);
  });

  it('every local file problem of attestation verify exits 1: unreadable, not JSON, not a snapshot', async () => {
    const notJson = join(dir, 'not.json');
    const notSnapshot = join(dir, 'object.json');
    writeFileSync(notJson, 'nope\n');
    writeFileSync(notSnapshot, '{}\n');
    const a = await vigil(['attestation', 'verify', notSnapshot, '--metagraph', notJson]);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/^vigil: --metagraph: .*not\.json is not JSON: /);
    const b = await vigil(['attestation', 'verify', notSnapshot, '--metagraph', notSnapshot]);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/^vigil: --metagraph: .*object\.json is not a metagraph snapshot \(netuid: /);
    expect((await vigil(['attestation', 'verify', notSnapshot, '--metagraph', join(dir, 'absent.json')])).code).toBe(1);
  });

  it('local errors name the argument once, without placeholders or SDK wording', async () => {
    const env = { VIGIL_BASE_URL: foreignUrl, VIGIL_API_TOKEN: TOKEN };
    const upload = await vigil(['artifacts', 'upload', join(dir, 'absent.tgz'), '--track', 'packages', '--package', 'npm:a@1.0.0'], { env });
    expect(upload.code).toBe(1);
    expect(upload.stderr).toMatch(/^vigil: file: cannot read .*absent\.tgz: ENOENT\n$/);
    const notJson = join(dir, 'hotkey.json');
    writeFileSync(notJson, 'nope\n');
    const keyfile = await vigil(['miner', 'register', '--track', 'skills', '--keyfile', notJson], { env });
    expect(keyfile).toMatchObject({ code: 1, stderr: 'vigil: keyfile: not valid JSON\n' });
    const login = await vigil(['login', '--token', 'garbage', '--no-check']);
    expect(login.code).toBe(2);
    expect(login.stderr).toBe('vigil: --token: expected a token of the form vgl_<8 hex>_<48 hex>\n(run "vigil --help" for usage)\n');
    const agentDir = join(dir, 'agent');
    const submit = await vigil(['miner', 'submit', agentDir, '--track', 'skills', '--name', 'a', '--provider', 'p', '--keyfile', notJson], { env });
    expect(submit.stderr).not.toMatch(/<file>|<dir>/);
  });

  it('an answer that is not Vigil\'s (an HTML 404 page) prints as one short line and says so', async () => {
    const r = await vigil(['health'], { env: { VIGIL_BASE_URL: foreignUrl } });
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^vigil: 404 <!DOCTYPE html> <html> <head><title>404 Not Found<\/title><\/head>/);
    expect(lines[0]!.replace(/ \(request id [^)]+\)$/, '').length).toBeLessThanOrEqual('vigil: 404 '.length + 201);
    expect(lines[1]).toBe('  not an answer of a Vigil API (no JSON detail): is the base URL right?');
  });

  it('events tail --from-now and --after together is a usage error', async () => {
    const r = await vigil(['events', 'tail', '--from-now', '--after', 'evc_x'], { env: { VIGIL_API_TOKEN: TOKEN } });
    expect(r).toMatchObject({ code: 2 });
    expect(r.stderr).toMatch(/^vigil: --from-now: not with --after/);
  });
});

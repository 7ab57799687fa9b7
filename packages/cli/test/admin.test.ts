import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuilt, startVigilServer, type VigilServer } from '../../../test-support/vigil-server.js';
import { json, vigil, type CliResult } from './support/cli.js';

let server: VigilServer;
let env: Record<string, string>;
const run = (args: string[], extra: Record<string, string | undefined> = {}): Promise<CliResult> => vigil(args, { env: { ...env, ...extra } });

/** A run that must succeed, its --json output parsed. */
async function ok<T = Record<string, unknown>>(args: string[], extra: Record<string, string | undefined> = {}): Promise<T> {
  const result = await run([...args, '--json'], extra);
  expect(result.code, `vigil ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return json<T>(result);
}

/** A run the server refuses: exit 1, `vigil: <status> <detail> (request id …)` on stderr, nothing on stdout. */
async function refused(args: string[], status: number, detail: string | RegExp, extra: Record<string, string | undefined> = {}): Promise<CliResult> {
  const result = await run(args, extra);
  expect(result.code, `vigil ${args.join(' ')}: ${result.stderr}`).toBe(1);
  expect(result.stdout).toBe('');
  const line = result.stderr.split('\n')[0]!;
  expect(line).toMatch(/ \(request id [0-9a-f-]+\)$/);
  const text = line.replace(/ \(request id [0-9a-f-]+\)$/, '');
  if (typeof detail === 'string') expect(text).toBe(`vigil: ${status} ${detail}`);
  else {
    expect(text.startsWith(`vigil: ${status} `), text).toBe(true);
    expect(text).toMatch(detail);
  }
  return result;
}

interface AuditEntry {
  action: string;
  target: string;
  actor: string;
  detail: Record<string, unknown>;
}

describe.skipIf(!serverBuilt)('vigil admin against a real server', () => {
  beforeAll(async () => {
    server = await startVigilServer();
    // The harness's paid key holds the admin scope, and the server allowlists 127.0.0.1.
    env = { VIGIL_BASE_URL: server.baseUrl, VIGIL_API_TOKEN: server.paidKey };
  }, 660_000);
  afterAll(async () => server?.stop());

  it('creates, reads, lists and updates an account; refusals exit 1 with the detail', async () => {
    const created = await ok<{ id: string; name: string; kind: string; plan: string; trusted: boolean; created_at: string }>(['admin', 'accounts', 'create', 'globex', '--plan', 'paid']);
    expect(created).toMatchObject({ name: 'globex', kind: 'organization', plan: 'paid', trusted: false });
    expect(created.id).toMatch(/^acc_[0-9a-f]{16}$/);
    // The answer as the server sent it: the offset timestamp, not a re-serialized Date.
    expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    expect(await ok(['admin', 'accounts', 'get', created.id])).toEqual(created);
    const personal = await ok(['admin', 'accounts', 'create', 'carol', '--kind', 'personal']);
    expect(personal).toMatchObject({ kind: 'personal', plan: 'free' });

    const list = await ok<{ accounts: { name: string }[] }>(['admin', 'accounts', 'list']);
    expect(list.accounts.map((a) => a.name)).toEqual(expect.arrayContaining(['acme', 'bob', 'globex', 'carol']));
    const table = await run(['admin', 'accounts', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`\\| ${created.id} \\| globex +\\| organization \\| paid +\\| no +\\|`));

    expect(await ok(['admin', 'accounts', 'update', created.id, '--plan', 'free', '--trusted'])).toMatchObject({ id: created.id, plan: 'free', trusted: true });
    const human = await run(['admin', 'accounts', 'update', created.id, '--untrusted']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^trusted +no$/m);

    await refused(['admin', 'accounts', 'create', 'globex'], 409, 'account name already taken');
    await refused(['admin', 'accounts', 'get', 'acc_0000000000000000'], 404, 'account not found');
    const invalid = await refused(['admin', 'accounts', 'create', 'Not A Slug'], 422, 'Validation error');
    expect(invalid.stderr).toMatch(/\n {2}body\.name: expected 2-64 lowercase letters/);
    // Checked before anything is sent: usage errors, exit 2.
    expect(await run(['admin', 'accounts', 'update', created.id])).toMatchObject({ code: 2, stderr: expect.stringMatching(/nothing to update: give --plan, --trusted or --untrusted/) });
    expect(await run(['admin', 'accounts', 'update', created.id, '--trusted', '--untrusted'])).toMatchObject({ code: 2 });
    expect(await run(['admin', 'accounts', 'create', 'x1', '--plan', 'gold'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--plan: expected one of free, paid/) });
  });

  it("issues a key for an account, which then works; revokes it, which then does not; and the audit log has it all", async () => {
    const account = await ok<{ id: string }>(['admin', 'accounts', 'create', 'initech', '--plan', 'paid']);
    // Without --json the token alone goes to stdout (a script captures it), the note to stderr.
    const issued = await run(['admin', 'keys', 'create', account.id, '--name', 'ci', '--scopes', 'read,verify']);
    expect(issued.code, issued.stderr).toBe(0);
    const token = issued.stdout.trim();
    expect(token).toMatch(/^vgl_[0-9a-f]{8}_[0-9a-f]{48}$/);
    const keyId = token.slice(4, 12);
    expect(issued.stderr).toContain(`Created key ${keyId} (ci; read, verify) for account ${account.id}.`);

    const whoami = await ok<{ account: { id: string }; key: { key_id: string; scopes: string[] } }>(['whoami'], { VIGIL_API_TOKEN: token });
    expect(whoami).toMatchObject({ account: { id: account.id }, key: { key_id: keyId, scopes: ['read', 'verify'] } });

    const keys = await ok<{ keys: { key_id: string; status: string }[] }>(['admin', 'keys', 'list', account.id]);
    expect(keys.keys).toEqual([expect.objectContaining({ key_id: keyId, status: 'active' })]);

    const revoked = await run(['admin', 'keys', 'revoke', keyId]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^Revoked key ${keyId} \\(ci\\) of account ${account.id} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}Z\\.\\n$`));
    await refused(['whoami'], 401, 'invalid or revoked api key', { VIGIL_API_TOKEN: token });
    await refused(['admin', 'keys', 'revoke', 'ffffffff'], 404, 'key not found');
    // The key in use is never revoked through itself.
    await refused(['admin', 'keys', 'revoke', server.paidKey.slice(4, 12)], 400, 'cannot revoke the key you are currently using');
    expect(await run(['admin', 'keys', 'create', account.id, '--name', 'x', '--scopes', 'read,root'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--scopes: expected a comma-separated list of/) });

    // Newest first; every page read with --all, the JSON as the server sent it.
    const log = await ok<{ entries: AuditEntry[] }>(['admin', 'audit-log', '--all', '--page-size', '2']);
    const actions = log.entries.map((e) => `${e.action} ${e.target}`);
    expect(actions.indexOf(`key.revoke ${keyId}`)).toBeGreaterThanOrEqual(0);
    expect(actions.indexOf(`key.revoke ${keyId}`)).toBeLessThan(actions.indexOf(`key.create ${keyId}`));
    expect(actions.indexOf(`key.create ${keyId}`)).toBeLessThan(actions.indexOf(`account.create ${account.id}`));
    expect(log.entries.find((e) => e.action === 'key.create' && e.target === keyId)).toMatchObject({ actor: `key:${server.paidKey.slice(4, 12)}`, detail: { scopes: ['read', 'verify'] } });
    // One page: the next one is named on stderr, stdout stays parseable.
    const page = await run(['admin', 'audit-log', '--page-size', '1', '--json']);
    expect(page.code).toBe(0);
    expect(json<{ entries: unknown[] }>(page).entries).toHaveLength(1);
    expect(page.stderr).toMatch(/^More: run again with --page 2 \(or --all\)\.$/m);
  });

  it('refuses a key without the admin scope (403) and a missing token (exit 2, nothing sent)', async () => {
    await refused(['admin', 'accounts', 'list'], 403, "api key lacks 'admin' scope", { VIGIL_API_TOKEN: server.freeKey });
    expect(await run(['admin', 'outbox'], { VIGIL_API_TOKEN: undefined })).toMatchObject({ code: 2, stderr: expect.stringMatching(/this command needs an API token/) });
  });

  it('lists validators and applies the status rules and the allowlist', async () => {
    const { validators } = await ok<{ validators: { hotkey: string; status: string; allowed_ips: string[] }[] }>(['admin', 'validators']);
    const active = validators.find((v) => v.status === 'active');
    expect(active).toBeDefined();
    const hotkey = active!.hotkey;
    expect(await ok(['admin', 'validators', 'suspend', hotkey])).toMatchObject({ hotkey, status: 'suspended' });
    await refused(['admin', 'validators', 'approve', hotkey], 409, `hotkey: ${hotkey} is suspended; approve applies to pending validators`);
    expect(await ok(['admin', 'validators', 'restore', hotkey])).toMatchObject({ hotkey, status: 'active' });
    const allowlisted = await ok<{ allowed_ips: string[] }>(['admin', 'validators', 'allowlist', hotkey, '203.0.113.7', '2001:db8::7']);
    expect(allowlisted.allowed_ips).toEqual(['203.0.113.7', '2001:db8::7']);
    await ok(['admin', 'validators', 'allowlist', hotkey, ...active!.allowed_ips]);
    const bad = await refused(['admin', 'validators', 'allowlist', hotkey, 'not-an-ip'], 422, 'Validation error');
    expect(bad.stderr).toMatch(/\n {2}body\.allowed_ips\.0: /);
    await refused(['admin', 'validators', 'revoke', '5'.repeat(48)], 404, 'validator not found');

    const log = await ok<{ entries: AuditEntry[] }>(['admin', 'audit-log', '--page-size', '10']);
    expect(log.entries.filter((e) => e.target === hotkey).map((e) => e.action)).toEqual(['validator.allowlist', 'validator.allowlist', 'validator.restore', 'validator.suspend']);
  });

  it('shows the round schedule and closes a round in evaluation, refusing it without --force while it is not due', async () => {
    const schedule = await ok<{ tracks: { track: string; current: { round_id: string; phase: string; status: string } | null }[] }>(['admin', 'rounds', 'schedule']);
    expect(schedule.tracks.map((t) => t.track)).toEqual(['skills', 'mcp_servers', 'packages', 'repositories']);
    const evaluating = schedule.tracks.find((t) => t.current?.status === 'open' && t.current.phase === 'evaluation')!.current!;
    const human = await run(['admin', 'rounds']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`\\| ${evaluating.round_id} \\| \\d+ +\\| open +\\| evaluation \\|`));

    await refused(['admin', 'rounds', 'close', evaluating.round_id], 409, /^vigil: 409 round_id: round [0-9a-f]+ closes at .+; send \{"force": true\} to close it now$/);
    const closed = await ok<{ round_id: string; status: string; phase: string; forced: boolean; scored: number; winners: string[] }>(['admin', 'rounds', 'close', evaluating.round_id, '--force']);
    expect(closed).toMatchObject({ round_id: evaluating.round_id, status: 'closed', phase: 'complete', forced: true });
    await refused(['admin', 'rounds', 'close', evaluating.round_id, '--force'], 409, `round_id: round ${evaluating.round_id} is already closed`);
    await refused(['admin', 'rounds', 'close', '00000000000000ff'], 404, 'round not found');

    const log = await ok<{ entries: AuditEntry[] }>(['admin', 'audit-log', '--page-size', '5']);
    expect(log.entries.find((e) => e.action === 'round.close')).toMatchObject({ target: evaluating.round_id, detail: { forced: true, scored: closed.scored, winners: closed.winners } });
  });

  it('uploads a metagraph snapshot from a file or stdin; refuses one that is not (422) and a file that is not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-admin-'));
    const snapshot = server.metagraph() as { netuid: number; block: number; neurons: unknown[] };
    const file = join(dir, 'metagraph.json');
    writeFileSync(file, JSON.stringify(snapshot));
    const uploaded = await ok<{ netuid: number; block: number; neurons: number; validator_permits: number }>(['admin', 'metagraph', 'upload', file]);
    expect(uploaded).toMatchObject({ netuid: 76, block: snapshot.block, neurons: snapshot.neurons.length });
    const piped = await vigil(['admin', 'metagraph', 'upload', '-'], { env, stdin: JSON.stringify(snapshot) });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(`Uploaded the metagraph of netuid 76 at block ${snapshot.block}: ${snapshot.neurons.length} neurons, ${uploaded.validator_permits} validator permits.\n`);

    writeFileSync(file, JSON.stringify({ netuid: 76, block: 1 }));
    const bad = await refused(['admin', 'metagraph', 'upload', file], 422, 'Validation error');
    expect(bad.stderr).toMatch(/\n {2}body\.(neurons|taken_at): /);
    writeFileSync(file, 'not json');
    expect(await run(['admin', 'metagraph', 'upload', file])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: file: .*metagraph\.json is not JSON/) });
  });

  it('reads the backlogs: outbox, advisories, package requests', async () => {
    const outbox = await ok<{ total: number; undelivered: number; undelivered_by_kind: Record<string, number>; deliveries: Record<string, unknown> }>(['admin', 'outbox']);
    expect(outbox.total).toBeGreaterThan(0);
    expect(Object.keys(outbox.undelivered_by_kind).sort()).toEqual(['attestation.created', 'repository.verified', 'round.closed', 'verdict.changed', 'webhook.disabled']);
    const outboxHuman = await run(['admin', 'outbox']);
    expect(outboxHuman.stdout).toMatch(new RegExp(`^events retained +${outbox.total}$`, 'm'));

    const advisories = await ok<{ advisories: number; last_import: unknown }>(['admin', 'advisories']);
    expect(advisories).toMatchObject({ advisories: expect.any(Number), packages: { npm: expect.any(Number), pypi: expect.any(Number) } });
    expect((await run(['admin', 'advisories'])).stdout).toMatch(/^last import +(never|.+ to .+)$/m);

    // A repository verification that installs a package nobody uploaded records a request for it.
    const purl = 'pkg:npm/vigil-admin-test-missing@9.9.9';
    const project = mkdtempSync(join(tmpdir(), 'vigil-admin-repo-'));
    const lock = {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { 'vigil-admin-test-missing': '9.9.9' } },
        'node_modules/vigil-admin-test-missing': { version: '9.9.9', resolved: 'https://registry.npmjs.org/vigil-admin-test-missing/-/vigil-admin-test-missing-9.9.9.tgz' },
      },
    };
    writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lock));
    const verify = await run(['verify-repo', project]);
    // Pending counts as WARN.
    expect(verify.code, verify.stderr).toBe(4);
    const requests = await ok<{ package_requests: { purl: string; requests: number }[] }>(['admin', 'package-requests', '--all']);
    expect(requests.package_requests).toContainEqual(expect.objectContaining({ purl, requests: 1 }));
  });
});

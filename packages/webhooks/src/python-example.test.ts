import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload } from './index.js';
import { SECRET, signedDelivery, verdictChanged } from './test-support/deliveries.js';

// docs/webhook-receivers.md shows this file to Python receivers: it must verify what the library signs.
const SCRIPT = fileURLToPath(new URL('../examples/verify.py', import.meta.url));
const DOC = fileURLToPath(new URL('../../../docs/webhook-receivers.md', import.meta.url));

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0;
if (!hasPython) console.warn('SKIPPED: the Python verification example tests (python3 is not on PATH)');

function runPython(headers: Record<string, string>, body: string | Uint8Array, secrets: string[]) {
  const result = spawnSync('python3', [SCRIPT, JSON.stringify(headers)], {
    input: body,
    env: { ...process.env, VIGIL_WEBHOOK_SECRETS: secrets.join(',') },
    encoding: 'utf8',
  });
  if (result.stderr) throw new Error(result.stderr);
  return { exit: result.status, output: JSON.parse(result.stdout) as Record<string, unknown> };
}

// Each test starts python3 several times (a pyenv shim is itself a shell script): on 2 cores under
// the whole workspace suite that took over 30 s, so the limit here only guards against a hang.
describe.skipIf(!hasPython)('examples/verify.py (Python 3 standard library)', { timeout: 120_000 }, () => {
  it('verifies a delivery signed by the library', () => {
    const event = verdictChanged();
    const d = signedDelivery(event);
    expect(runPython(d.headers, d.body, [SECRET])).toEqual({ exit: 0, output: { ok: true, type: 'verdict.changed', id: event.id } });
  });

  it('verifies non-ASCII bodies as their UTF-8 bytes', () => {
    const event = verdictChanged();
    const body = JSON.stringify({ ...event, note: 'Grüße — 検証 ✓' });
    const d = signedDelivery(event, { body });
    expect(runPython(d.headers, new TextEncoder().encode(body), [SECRET]).exit).toBe(0);
  });

  it('refuses a tampered body, a wrong secret and an old timestamp, naming the check', () => {
    const d = signedDelivery(verdictChanged());
    expect(runPython(d.headers, d.body.replace('"BLOCK"', '"ALLOW"'), [SECRET])).toEqual({
      exit: 1,
      output: { ok: false, code: 'signature_mismatch', message: 'signature mismatch' },
    });
    expect(runPython(d.headers, d.body, ['whsec_not_the_secret_00000000000000000000']).output.code).toBe('signature_mismatch');
    const old = signedDelivery(verdictChanged(), { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(runPython(old.headers, old.body, [SECRET]).output).toEqual({ ok: false, code: 'timestamp_too_old', message: 'X-Vigil-Timestamp is more than 300 s old' });
    const { 'x-vigil-delivery': _omitted, ...withoutDelivery } = d.headers;
    expect(runPython(withoutDelivery, d.body, [SECRET]).output).toEqual({ ok: false, code: 'missing_header', message: 'missing X-Vigil-Delivery header' });
  });

  it('accepts either secret while rotating, and checks X-Vigil-Event against the body', () => {
    const next = 'whsec_next_secret_after_rotation_000000000';
    const d = signedDelivery(verdictChanged(), { secret: next });
    expect(runPython(d.headers, d.body, [SECRET, next]).exit).toBe(0);
    const mismatched = signedDelivery(verdictChanged(), { eventHeader: 'round.closed' });
    expect(runPython(mismatched.headers, mismatched.body, [SECRET]).output.code).toBe('event_type_mismatch');
    const notJson = signedDelivery({ type: 'x' }, { body: '{"type":' });
    expect(runPython(notJson.headers, notJson.body, [SECRET]).output.code).toBe('body_not_json');
    const ts = Math.floor(Date.now() / 1000);
    const upper = signWebhookPayload(SECRET, ts, d.body).toUpperCase();
    expect(runPython({ ...d.headers, 'x-vigil-timestamp': String(ts), 'x-vigil-signature': upper }, d.body, [SECRET]).output.code).toBe('malformed_signature');
  });
});

describe('docs/webhook-receivers.md', () => {
  it('shows examples/verify.py exactly as tested', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toContain('```python\n' + readFileSync(SCRIPT, 'utf8') + '```');
  });
});

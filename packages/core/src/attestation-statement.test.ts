import { describe, expect, it } from 'vitest';
import { attestationDsseMessage, attestationStatement, attestationStatementBytes, dssePreAuthEncoding } from './attestation-statement.js';
import { canonicalJson, JsonDepthError } from './canonical.js';

const payload = {
  round_id: '3f9a1c0e7b2d4a58',
  task_id: 'task_000123',
  track: 'packages',
  artifact: { bundle_hash: 'packages/left-pad-1.3.0/npm/left-pad', sha256: `sha256:${'e3'.repeat(32)}`, extra: 'kept' },
  verdict: 'WARN',
  note: 'an unknown field the validator signed',
};

describe('attestationStatement', () => {
  it('names the artifact by bundle hash and digest, with the payload as the predicate, unknown fields included', () => {
    expect(attestationStatement(payload)).toEqual({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: 'packages/left-pad-1.3.0/npm/left-pad', digest: { sha256: 'e3'.repeat(32) } }],
      predicateType: 'https://vigil.dev/attestation/v1',
      predicate: payload,
    });
  });

  it('serializes canonically: the same bytes whatever the key order', () => {
    const reordered = Object.fromEntries(Object.entries(payload).reverse()) as typeof payload;
    const text = new TextDecoder().decode(attestationStatementBytes(payload));
    expect(text).toBe(canonicalJson(attestationStatement(payload)));
    expect(attestationStatementBytes(reordered)).toEqual(attestationStatementBytes(payload));
    expect(text.startsWith('{"_type":"https://in-toto.io/Statement/v1","predicate":{"artifact":{')).toBe(true);
  });

  it('signs the PAE of the in-toto payload type over those bytes', () => {
    expect(attestationDsseMessage(payload)).toEqual(dssePreAuthEncoding('application/vnd.in-toto+json', attestationStatementBytes(payload)));
    const head = new TextDecoder().decode(attestationDsseMessage(payload).slice(0, 40));
    expect(head).toBe(`DSSEv1 28 application/vnd.in-toto+json ${attestationStatementBytes(payload).length}`.slice(0, 40));
  });

  it('nests one level deeper than the payload, so a payload at the depth limit has no statement', () => {
    let deep: unknown = 'x';
    for (let level = 0; level < 63; level++) deep = [deep];
    const atLimit = { ...payload, deep }; // payload level 1, the innermost array level 64
    expect(() => canonicalJson(atLimit)).not.toThrow();
    expect(() => attestationStatementBytes(atLimit)).toThrow(JsonDepthError);
  });
});

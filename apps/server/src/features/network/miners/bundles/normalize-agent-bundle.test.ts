import { AGENT_BUNDLE_FORMAT, AgentBundle, canonicalHash } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { AgentBundleError } from './agent-bundle-error.js';
import { bundleBodyLimit } from './bundle-body-limit.js';
import { normalizeAgentBundle } from './normalize-agent-bundle.js';
import { agentHashOf } from './store-agent-bundle.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const BUNDLE = AgentBundle.parse({
  format: AGENT_BUNDLE_FORMAT,
  entrypoint: 'agent.py',
  files: [
    { path: 'lib/util.py', content_base64: b64('def f():\n    return 1\n') },
    { path: 'agent.py', content_base64: b64('import lib.util\n'), mode: '0755' },
    { path: 'README.md', content_base64: '' },
  ],
});

describe('normalizeAgentBundle', () => {
  it('sorts files by path, spells out the default mode and keeps the content', () => {
    expect(normalizeAgentBundle(BUNDLE, 1024)).toEqual({
      format: AGENT_BUNDLE_FORMAT,
      entrypoint: 'agent.py',
      files: [
        { path: 'README.md', mode: '0644', content_base64: '' },
        { path: 'agent.py', mode: '0755', content_base64: b64('import lib.util\n') },
        { path: 'lib/util.py', mode: '0644', content_base64: b64('def f():\n    return 1\n') },
      ],
    });
  });

  it('gives the same agent hash whatever the file order, explicit default modes or base64 padding bits', () => {
    const reordered = AgentBundle.parse({
      ...BUNDLE,
      files: [...BUNDLE.files].reverse().map((file) => ({ mode: '0644', ...file })),
    });
    expect(agentHashOf(normalizeAgentBundle(reordered, 1024))).toBe(agentHashOf(normalizeAgentBundle(BUNDLE, 1024)));
    // "QR==" carries non-zero padding bits; it decodes to the same byte as "QQ==".
    const one = (content: string) =>
      agentHashOf(normalizeAgentBundle(AgentBundle.parse({ format: AGENT_BUNDLE_FORMAT, entrypoint: 'a', files: [{ path: 'a', content_base64: content }] }), 10));
    expect(one('QR==')).toBe(one('QQ=='));
    expect(one('QQ==')).not.toBe(one('Qg=='));
  });

  it('gives the agent hash of the worked example in docs/protocol.md', () => {
    const example = AgentBundle.parse({
      format: AGENT_BUNDLE_FORMAT,
      entrypoint: 'agent.py',
      files: [
        { path: 'agent.py', content_base64: 'ZnJvbSBsaWIucnVsZXMgaW1wb3J0IFJVTEVTCg==', mode: '0755' },
        { path: 'lib/rules.py', content_base64: 'UlVMRVMgPSBbImV2YWwoIiwgImN1cmwgfCBzaCJdCg==' },
      ],
    });
    expect(agentHashOf(normalizeAgentBundle(example, 1024))).toBe(
      'sha256:f786c29cb7d48fed296df46a953123c667a0c5553a8b67c8fe98d8274d486ac2',
    );
  });

  it('hashes the RFC 8785 bytes of the normalized bundle', () => {
    const normalized = normalizeAgentBundle(BUNDLE, 1024);
    expect(agentHashOf(normalized)).toBe(canonicalHash(normalized));
    expect(agentHashOf(normalized)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('accepts decoded content of exactly the limit and refuses one byte more, naming files', () => {
    const total = 'import lib.util\n'.length + 'def f():\n    return 1\n'.length;
    expect(() => normalizeAgentBundle(BUNDLE, total)).not.toThrow();
    let caught: unknown;
    try {
      normalizeAgentBundle(BUNDLE, total - 1);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AgentBundleError);
    expect((caught as AgentBundleError).field).toBe('files');
    expect((caught as AgentBundleError).reason).toBe(`decoded content is ${total} bytes, over the limit of ${total - 1} bytes`);
  });

  it('refuses a limit that is not a positive integer, naming it', () => {
    expect(() => normalizeAgentBundle(BUNDLE, 0)).toThrow('limitBytes: expected an integer ≥ 1, got 0');
  });
});

describe('bundleBodyLimit', () => {
  it('leaves room for base64 of the whole budget plus the JSON around the files', () => {
    const limit = 16 * 1024 * 1024;
    expect(bundleBodyLimit(limit)).toBeGreaterThan((limit * 4) / 3);
    expect(bundleBodyLimit(limit)).toBeLessThan((limit * 4) / 3 + 2 * 1024 * 1024);
    expect(() => bundleBodyLimit(1.5)).toThrow('bundleLimitBytes: expected an integer ≥ 1, got 1.5');
  });
});

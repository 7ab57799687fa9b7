import { describe, expect, it } from 'vitest';
import { agentHash, normalizeAgentBundle } from './agent-hash.js';
import { AGENT_BUNDLE_FORMAT, AgentBundle } from './schemas/miners.js';

const one = (content: string) => AgentBundle.parse({ format: AGENT_BUNDLE_FORMAT, entrypoint: 'a', files: [{ path: 'a', content_base64: content }] });

describe('agentHash', () => {
  it('is the hash of the worked example in docs/protocol.md', () => {
    const example = AgentBundle.parse({
      format: AGENT_BUNDLE_FORMAT,
      entrypoint: 'agent.py',
      files: [
        { path: 'lib/rules.py', content_base64: 'UlVMRVMgPSBbImV2YWwoIiwgImN1cmwgfCBzaCJdCg==' },
        { path: 'agent.py', content_base64: 'ZnJvbSBsaWIucnVsZXMgaW1wb3J0IFJVTEVTCg==', mode: '0755' },
      ],
    });
    expect(agentHash(example)).toBe('sha256:f786c29cb7d48fed296df46a953123c667a0c5553a8b67c8fe98d8274d486ac2');
  });

  it('zeroes the unused bits of the last base64 character, which decode to nothing', () => {
    // "QR==" and "QQ==" both decode to "A"; "QUJ=" and "QUI=" both to "AB".
    expect(normalizeAgentBundle(one('QR==')).files[0]!.content_base64).toBe('QQ==');
    expect(normalizeAgentBundle(one('QUJ=')).files[0]!.content_base64).toBe('QUI=');
    expect(agentHash(one('QR=='))).toBe(agentHash(one('QQ==')));
    expect(agentHash(one('QQ=='))).not.toBe(agentHash(one('Qg==')));
    expect(normalizeAgentBundle(one('QUJD')).files[0]!.content_base64).toBe('QUJD');
  });

  it('matches what Node re-encodes for every padding-bit variant of one and two bytes', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (const last of alphabet) {
      for (const text of [`Q${last}==`, `QU${last}=`]) {
        expect(normalizeAgentBundle(one(text)).files[0]!.content_base64).toBe(Buffer.from(text, 'base64').toString('base64'));
      }
    }
  });
});

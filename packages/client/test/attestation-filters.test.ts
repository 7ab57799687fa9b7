import { afterEach, describe, expect, it } from 'vitest';
import { Vigil } from '../src/index.js';
import { json, startStandIn, type StandIn } from './support/stand-in.js';

const KEY = `vgl_0123abcd_${'ab'.repeat(24)}`;
let standIn: StandIn | undefined;

afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

describe('attestations.list', () => {
  it('takes the artifact id as every answer prints it (art_<n>) or as the number', async () => {
    standIn = await startStandIn((_i, _seen, res) => json(res, 200, { attestations: [] }));
    const vigil = new Vigil({ baseUrl: standIn.baseUrl, apiKey: KEY });
    for (const artifact of ['art_42', 42, '42']) await vigil.attestations.list({ artifact });
    expect(standIn.seen.map((s) => new URL(s.url, 'http://x').searchParams.get('artifact'))).toEqual(['42', '42', '42']);
  });
});

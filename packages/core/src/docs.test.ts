import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson } from './canonical.js';
import { AttestationPayload } from './schemas/attestation.js';
import { normalizePackageRef } from './purl.js';
import { FINDING_CATEGORIES, PLANES, planeOfCategory } from './enums.js';

// The docs show computed values; recompute them so the pages cannot drift from the code.
const readDoc = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8');

function marked(doc: string, marker: string, fence: RegExp): string {
  const at = doc.indexOf(`<!-- ${marker} -->`);
  expect(at, `marker ${marker}`).toBeGreaterThanOrEqual(0);
  const match = fence.exec(doc.slice(at));
  expect(match, `block after ${marker}`).not.toBeNull();
  return match![1]!;
}

describe('docs/attestations.md worked example', () => {
  const doc = readDoc('attestations.md');
  const payload: unknown = JSON.parse(marked(doc, 'example:payload', /```json\n([\s\S]*?)```/));
  const canonical = marked(doc, 'example:canonical', /```text\n([\s\S]*?)\n```/);
  const hash = marked(doc, 'example:hash', /`(sha256:[0-9a-f]{64})`/);

  it('shows a payload the schema accepts', () => {
    expect(AttestationPayload.safeParse(payload).success).toBe(true);
  });

  it('shows the canonical bytes and hash the library computes', () => {
    expect(canonicalJson(payload)).toBe(canonical);
    expect(canonicalHash(payload)).toBe(hash);
  });
});

describe('docs/package-references.md examples', () => {
  const doc = readDoc('package-references.md');
  const rows = [...doc.matchAll(/^\| `([^`]+)` \| `(pkg:[^`]+)` \|$/gm)];

  it('has examples', () => {
    expect(rows.length).toBeGreaterThanOrEqual(5);
  });

  it.each(rows.map((m) => [m[1]!, m[2]!]))('%s normalizes to %s', (input, purl) => {
    expect(normalizePackageRef(input)).toBe(purl);
  });
});

describe('docs/aggregates.md plane table', () => {
  const table = marked(readDoc('aggregates.md'), 'planes', /(\| plane \|[\s\S]*?)\n\n/);
  const rows = [...table.matchAll(/^\| `(\w+)` \| (.*) \|$/gm)].map((m) => ({
    plane: m[1]!,
    categories: [...m[2]!.matchAll(/`(\w+)`/g)].map((c) => c[1]!),
  }));

  it('lists each plane once, in the order the dashboard shows them', () => {
    expect(rows.map((row) => row.plane)).toEqual([...PLANES]);
  });

  it('puts each category where planeOfCategory counts it, and names every known category', () => {
    const documented = rows.flatMap((row) => row.categories.map((category) => [category, row.plane] as const));
    for (const [category, plane] of documented) expect(planeOfCategory(category), category).toBe(plane);
    expect(documented.map(([category]) => category).sort()).toEqual([...FINDING_CATEGORIES].sort());
  });
});


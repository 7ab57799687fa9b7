import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as core from './index.js';
import * as common from './schemas/common.js';

// index.ts re-exports every schema area whole, so adding a schema takes no edit there. This keeps
// that true for a new area, and keeps the private helpers of schemas/common.ts out of the package.
const schemasDir = fileURLToPath(new URL('./schemas/', import.meta.url));
const indexText = readFileSync(fileURLToPath(new URL('./index.ts', import.meta.url)), 'utf8');

describe('index.ts', () => {
  it('re-exports every schema area whole (export *), except schemas/common.ts', () => {
    const areas = readdirSync(schemasDir)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'common.ts')
      .map((file) => file.replace(/\.ts$/, ''));
    expect(areas.length).toBeGreaterThanOrEqual(20);
    const missing = areas.filter((area) => !indexText.includes(`export * from './schemas/${area}.js';`));
    expect(missing).toEqual([]);
  });

  it('names only LabelValue of schemas/common.ts (NonNegativeInt stays private)', () => {
    const published = Object.keys(common).filter((name) => name in core);
    expect(published).toEqual(['LabelValue']);
    expect(indexText).not.toMatch(/export \* from '\.\/schemas\/common\.js'/);
  });
});

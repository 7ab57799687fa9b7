import { readFileSync } from 'node:fs';
import { ERROR_CATALOGUE, refusalDetail, type ErrorDefinition } from '@vigil/core';
import { describe, expect, it } from 'vitest';

const DOC = new URL('../../../docs/errors.md', import.meta.url);

interface DocRow {
  code: string;
  status: number;
  detail: string;
}

/** The rows of the catalogue table: `| \`code\` | status | \`detail\` | cause |`. */
function documentedRows(markdown: string): DocRow[] {
  const rows: DocRow[] = [];
  for (const line of markdown.split('\n')) {
    const match = /^\|\s*`([a-z_]+)`\s*\|\s*(\d{3})\s*\|\s*`([^`]+)`\s*\|/.exec(line);
    if (match) rows.push({ code: match[1] ?? '', status: Number(match[2]), detail: match[3] ?? '' });
  }
  return rows;
}

/** A parameterised detail is documented with its argument as `<name>`; render the catalogue's the same way. */
function catalogueDetail(definition: ErrorDefinition, documented: string): string {
  if (typeof definition.detail === 'string') return definition.detail;
  const placeholder = /<[a-z_]+>/.exec(documented)?.[0] ?? '<argument>';
  return definition.detail(placeholder);
}

describe('docs/errors.md', () => {
  const rows = documentedRows(readFileSync(DOC, 'utf8'));

  it('lists every catalogue code exactly once, and nothing else', () => {
    const codes = rows.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
  });

  it('gives each code the catalogue status and detail', () => {
    const catalogue: Record<string, ErrorDefinition> = ERROR_CATALOGUE;
    for (const row of rows) {
      const definition = catalogue[row.code];
      expect(definition, row.code).toBeDefined();
      if (!definition) continue;
      expect({ code: row.code, status: row.status }).toEqual({ code: row.code, status: definition.status });
      expect({ code: row.code, detail: row.detail }).toEqual({ code: row.code, detail: catalogueDetail(definition, row.detail) });
    }
  });

  it('shows the parameterised details with a named argument', () => {
    const catalogue: Record<string, ErrorDefinition> = ERROR_CATALOGUE;
    const parameterised = rows.filter((r) => typeof catalogue[r.code]?.detail === 'function');
    const spec = parameterised.filter((r) => catalogue[r.code]?.detail !== refusalDetail);
    expect(spec.map((r) => r.code).sort()).toEqual(['ip_not_allowlisted', 'scope_missing']);
    for (const row of parameterised) expect(row.detail).toMatch(/<[a-z_]+>/);
    // A refusal of the signed endpoints shows its sentence as <reason>, as the text above the table explains.
    for (const row of parameterised.filter((r) => !spec.includes(r))) expect(row.detail).toBe('<reason>');
  });
});

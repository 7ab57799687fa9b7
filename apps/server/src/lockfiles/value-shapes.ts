/** Narrowing helpers for parsed lockfile values: a lockfile is untrusted input of any shape. */

export type Entries = Record<string, unknown>;

export function isRecord(value: unknown): value is Entries {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own enumerable entries of a record (never the prototype's): `__proto__` keys are plain keys here. */
export function entriesOf(value: Entries): [string, unknown][] {
  return Object.entries(value);
}

/** A map of dependency name to spec (`dependencies:` and its kin); entries that are not strings are dropped by the caller's check. */
export function stringMap(value: unknown): [string, string][] | null {
  if (value === undefined || value === null) return [];
  if (!isRecord(value)) return null;
  const out: [string, string][] = [];
  for (const [key, spec] of Object.entries(value)) {
    if (typeof spec !== 'string') return null;
    out.push([key, spec]);
  }
  return out;
}

export function own(record: Entries, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

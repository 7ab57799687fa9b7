/** Narrowing helpers for parsed lockfile values: a lockfile is untrusted input of any shape. */

export type Entries = Record<string, unknown>;

export function isRecord(value: unknown): value is Entries {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A map of dependency name to spec (`dependencies` and its kin) as pairs; null when it is not one. */
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

/** A field of a parsed object, never one inherited from its prototype (`constructor`, `toString`). */
export function own(record: Entries, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

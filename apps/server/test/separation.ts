import { gunzipSync } from 'node:zlib';

/**
 * A per-field classifier for benchmark secrecy (DESIGN.md: nothing a validator receives tells labeled
 * benchmark artifacts from live ones). Each sample is one task as a validator met it, flattened to
 * fields; a field separates the two kinds when one rule on that field alone sorts every sample of a
 * group right:
 *
 * - its values never occur on both sides; a field with more distinct
 *   values than half the artifacts (hashes, task ids, body lengths) is an identifier, whose value
 *   says nothing about any other artifact, so only its presence, type, shape and order are judged;
 * - its type (absent, null, string, number, …) or its shape (type, length and the kinds of
 *   characters it holds) never occurs on both sides;
 * - one threshold splits them: every value of one side sorts below every value of the other
 *   (numbers by value, text by length then characters, so `skill-z` < `skill-10`, as a counter
 *   written in any base is ordered). This is what an ordering leak looks like: labeled tasks handed
 *   out first, or numbered before the live ones.
 *
 * Judged within each group (a round: a validator meets tasks round by round) and over all samples.
 * A side needs at least two samples (and two artifacts) for a field to count as separating it.
 */
export interface Sample {
  kind: 'labeled' | 'live';
  /** The artifact the task is about (several tasks of one artifact are not several artifacts). */
  artifact: string;
  /** Where the sample was met (a round); fields are judged per group and over all groups. */
  group: string;
  fields: Record<string, unknown>;
}

const ABSENT = '<absent>';

/** Every leaf of a JSON-like value as `path → value`, plus the length of each array and the key list of each object. */
export function flatten(value: unknown, prefix: string, out: Record<string, unknown> = {}): Record<string, unknown> {
  if (Array.isArray(value)) {
    out[`${prefix}.length`] = value.length;
    value.forEach((item, i) => flatten(item, `${prefix}[${i}]`, out));
  } else if (typeof value === 'object' && value !== null) {
    out[`${prefix}.keys`] = Object.keys(value).sort().join(',');
    for (const [key, inner] of Object.entries(value)) flatten(inner, `${prefix}.${key}`, out);
  } else {
    out[prefix] = value;
  }
  return out;
}

function typeOf(value: unknown): string {
  if (value === ABSENT) return 'absent';
  if (value === null) return 'null';
  return typeof value;
}

/** Type, length and the kinds of characters: `string 71 a 9 :` for every `sha256:<hex>`. */
function shapeOf(value: unknown): unknown {
  if (typeof value !== 'string' || value === ABSENT) return typeOf(value);
  const classes = new Set([...value].map((c) => (/[a-z]/.test(c) ? 'a' : /[A-Z]/.test(c) ? 'A' : /[0-9]/.test(c) ? '9' : c)));
  return `string ${value.length} ${[...classes].sort().join(' ')}`;
}

function key(value: unknown): string {
  return value === ABSENT ? ABSENT : `${typeOf(value)}:${typeof value === 'string' ? value : JSON.stringify(value)}`;
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x.length !== y.length ? x.length - y.length : x < y ? -1 : x > y ? 1 : 0;
}

interface Side {
  values: unknown[];
  artifacts: Set<string>;
}

/** How one field (already derived: a value, a type or a shape) separates the sides, or null. */
function separates(labeled: Side, live: Side, options: { identifier: boolean; ordered: boolean }): string | null {
  if (labeled.values.length < 2 || live.values.length < 2 || labeled.artifacts.size < 2 || live.artifacts.size < 2) return null;
  if (!options.identifier) {
    const seen = new Set(labeled.values.map(key));
    if (!live.values.some((v) => seen.has(key(v)))) return 'values';
  }
  if (!options.ordered) return null;
  const all = [...labeled.values, ...live.values];
  if (!(all.every((v) => typeof v === 'number') || all.every((v) => typeof v === 'string' && v !== ABSENT))) return null;
  const bounds = (values: unknown[]) => {
    const sorted = [...values].sort(compare);
    return [sorted[0], sorted[sorted.length - 1]] as const;
  };
  const [labeledMin, labeledMax] = bounds(labeled.values);
  const [liveMin, liveMax] = bounds(live.values);
  return compare(labeledMax, liveMin) < 0 || compare(liveMax, labeledMin) < 0 ? 'order' : null;
}

/** The fields that separate labeled from live samples, as `<field> (<how>, <group>)`; empty when none does. */
export function separatingFields(samples: readonly Sample[]): string[] {
  // Each field is judged as it is, by its presence and type, and by its shape.
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.fields)))];
  const derived = samples.map((s) => {
    const fields: Record<string, unknown> = {};
    for (const name of names) {
      const value = name in s.fields ? s.fields[name] : ABSENT;
      fields[name] = value;
      fields[`${name} #type`] = typeOf(value);
      fields[`${name} #shape`] = shapeOf(value);
    }
    return { ...s, fields };
  });
  const groups = new Map<string, typeof derived>([['all rounds', derived]]);
  for (const s of derived) {
    const group = groups.get(`round ${s.group}`);
    if (group === undefined) groups.set(`round ${s.group}`, [s]);
    else group.push(s);
  }
  const found: string[] = [];
  for (const name of Object.keys(derived[0]?.fields ?? {}).sort()) {
    const ordered = !name.includes(' #');
    for (const [group, members] of groups) {
      // An identifier: a field with more distinct values than half the artifacts (a hash, a task id,
      // a body length) names artifacts rather than classing them; a value seen once says nothing
      // about another artifact, so such a field is judged by its order, type and shape only.
      const values = new Set(members.map((s) => key(s.fields[name])));
      const artifacts = new Set(members.map((s) => s.artifact));
      const identifier = values.size > artifacts.size / 2;
      const side = (kind: Sample['kind']): Side => {
        const of = members.filter((s) => s.kind === kind);
        return { values: of.map((s) => s.fields[name]), artifacts: new Set(of.map((s) => s.artifact)) };
      };
      const how = separates(side('labeled'), side('live'), { identifier, ordered });
      if (how !== null) found.push(`${name} (${how}, ${group})`);
    }
  }
  return found;
}

/** A bundle hash `{track}/{label}/{source_id}` as its three parts, so a source id's order is judged on its own. */
export function sourceIdFields(bundleHash: string, prefix: string): Record<string, unknown> {
  const [track, label, ...rest] = bundleHash.split('/');
  return { [`${prefix} track`]: track, [`${prefix} label`]: label, [`${prefix} source_id`]: rest.join('/') };
}

const text = (bytes: Uint8Array, start: number, length: number) =>
  Buffer.from(bytes.subarray(start, start + length)).toString('latin1').replace(/\0.*$/s, '');
const octal = (bytes: Uint8Array, start: number, length: number) => parseInt(text(bytes, start, length).trim() || '0', 8);

/** The entries of a ustar archive: each header's fields, names below the archive's top directory. */
function tarFields(tar: Uint8Array, prefix: string): Record<string, unknown> {
  const entries: Record<string, unknown>[] = [];
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const size = octal(tar, at + 124, 12);
    entries.push({
      name: text(tar, at, 100),
      mode: text(tar, at + 100, 8),
      uid: octal(tar, at + 108, 8),
      gid: octal(tar, at + 116, 8),
      size,
      mtime: octal(tar, at + 136, 12),
      typeflag: text(tar, at + 156, 1),
      magic: text(tar, at + 257, 8),
      uname: text(tar, at + 265, 32),
      gname: text(tar, at + 297, 32),
      prefix: text(tar, at + 345, 155),
    });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  const root = (name: unknown) => String(name).split('/')[0];
  const out: Record<string, unknown> = { [`${prefix}.root`]: root(entries[0]?.name) };
  return flatten(
    entries.map((entry) => ({ ...entry, name: String(entry.name).slice(root(entry.name)!.length) })),
    `${prefix}.entries`,
    out,
  );
}

/**
 * A download as the validator received it: its status, every header, the body's length and, for a
 * gzipped tar archive, the gzip header and every tar header; for JSON, every field.
 */
export function downloadFields(download: { status: number; headers: Record<string, string>; bytes: Uint8Array }, prefix: string): Record<string, unknown> {
  const { bytes } = download;
  const out: Record<string, unknown> = { [`${prefix}.status`]: download.status, [`${prefix}.bytes.length`]: bytes.length };
  flatten(download.headers, `${prefix}.header`, out);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    out[`${prefix}.gzip.header`] = Buffer.from(bytes.subarray(2, 10)).toString('hex');
    Object.assign(out, tarFields(new Uint8Array(gunzipSync(bytes)), `${prefix}.tar`));
  } else if (bytes[0] === 0x7b) {
    flatten(JSON.parse(Buffer.from(bytes).toString('utf8')), `${prefix}.json`, out);
  }
  return out;
}

type Download = { status: number; headers: Record<string, string>; bytes: Uint8Array };

/**
 * Everything one validator received about one task, as fields for separatingFields: the claim (which
 * call, where in it, in what order), the claim's round and headers, the task, its artifact's and
 * bundle's downloads, and the threat-intel answer with its headers.
 */
export function receivedTaskFields(seen: {
  call: number;
  position: number;
  order: number;
  round: unknown;
  claimed: { headers: Record<string, string> };
  task: { artifact: { bundle_hash: string } };
  artifact: Download;
  bundle: Download;
  intel: { bundle_hashes: readonly string[] };
  intelAnswer: { headers: Record<string, string> };
}): Record<string, unknown> {
  return {
    'claim.call': seen.call,
    'claim.position': seen.position,
    'claim.order': seen.order,
    ...flatten(seen.round, 'claim.round'),
    ...flatten(seen.claimed.headers, 'claim.header'),
    ...flatten(seen.task, 'task'),
    ...sourceIdFields(seen.task.artifact.bundle_hash, 'task.artifact.bundle_hash'),
    ...downloadFields(seen.artifact, 'artifact'),
    ...downloadFields(seen.bundle, 'bundle'),
    ...flatten(seen.intel, 'intel'),
    ...Object.assign({}, ...seen.intel.bundle_hashes.map((hash, i) => sourceIdFields(hash, `intel.bundle_hashes[${i}]`))),
    ...flatten(seen.intelAnswer.headers, 'intel.header'),
  };
}

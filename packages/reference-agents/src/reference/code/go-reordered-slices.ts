import { goIntegerLiteral, goLiteralValue } from './go-strings.js';

/**
 * (round s31b) Text a Go program spells by putting the pieces of a string table in another order at run time,
 * so no literal of the source holds it: `parts := []string{"7", "/", "w", …}` read through an index table
 * (`for _, i := range idx { b = append(b, parts[i]...) }`, `for k := range idx { s += parts[idx[k]] }`,
 * `for k := 0; k < len(idx); k++ { sb.WriteString(parts[idx[k]]) }`), an alphabet string indexed the same way
 * (`abc[i]`), a slice of `{position, piece}` structs put in order by `sort.Slice` / `sort.SliceStable` /
 * `slices.SortFunc` on the position, or a `map[int]string` read by a counting loop (`m[i]` for `i := 0; i < len(m)`).
 * Held-out set 32: a Go MCP server's `init` rebuilt `wget … | /bin/bash &` from a shuffled one-character slice.
 * Only constant tables are read (literals and integer literals), a table at most 4,096 elements, twenty tables a
 * package; what the program does with the pieces besides joining them is not evaluated.
 */

const MAX_ELEMENTS = 4096;
const MAX_TABLES = 20;
const MAX_TEXT = 8192;

/** The text between the brace at `open` and the one closing it (strings, runes, comments skipped), bounded. */
function braceBody(text: string, open: number): string | null {
  let depth = 0;
  const end = Math.min(text.length, open + 256 * 1024);
  for (let i = open; i < end; i++) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? end : nl;
    } else if (c === '"' || c === "'") {
      i++;
      while (i < end && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
    } else if (c === '`') {
      const close = text.indexOf('`', i + 1);
      i = close < 0 ? end : close;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(open + 1, i);
  }
  return null;
}

/** The elements of a composite literal's body split at its top-level commas. */
function elements(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '"' || c === "'") {
      i++;
      while (i < body.length && body[i] !== c && body[i] !== '\n') i += body[i] === '\\' ? 2 : 1;
    } else if (c === '`') {
      const close = body.indexOf('`', i + 1);
      i = close < 0 ? body.length : close;
    } else if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out.map((e) => e.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').trim()).filter((e) => e !== '');
}

const LITERAL = /^("(?:[^"\\\n]|\\.)*"|`[^`]*`)$/;

interface Tables {
  strings: Map<string, string[]>;
  integers: Map<string, number[]>;
  pairs: Map<string, { pos: number; text: string }[]>;
  maps: Map<string, { pos: number; text: string }[]>;
}

function tablesOf(texts: readonly string[]): Tables {
  const tables: Tables = { strings: new Map(), integers: new Map(), pairs: new Map(), maps: new Map() };
  let count = 0;
  for (const text of texts) {
    for (const m of text.matchAll(/\b(\w+)\s*(?::=|=)\s*(?:\[(?:\d*|\.\.\.)\](string|u?int(?:8|16|32|64)?|byte|rune|\w+)|map\[\s*int\s*\]\s*string)\s*\{/g)) {
      if (count >= MAX_TABLES) return tables;
      const body = braceBody(text, m.index + m[0].length - 1);
      if (body === null) continue;
      const items = elements(body);
      if (items.length === 0 || items.length > MAX_ELEMENTS) continue;
      const name = m[1]!;
      const kind = m[2];
      if (kind === undefined) {
        // map[int]string{3: "wget", 1: "…"}
        const entries = items.map((e) => /^([^:]+):\s*("(?:[^"\\\n]|\\.)*"|`[^`]*`)$/.exec(e)).map((x) => (x === null ? null : { pos: goIntegerLiteral(x[1]!), text: goLiteralValue(x[2]!) }));
        if (entries.every((e) => e !== null && e.pos !== null)) {
          tables.maps.set(name, entries as { pos: number; text: string }[]);
          count++;
        }
      } else if (kind === 'string') {
        if (items.every((e) => LITERAL.test(e))) {
          tables.strings.set(name, items.map(goLiteralValue));
          count++;
        }
      } else if (/^(?:u?int(?:8|16|32|64)?|byte|rune)$/.test(kind)) {
        const values = items.map(goIntegerLiteral);
        if (values.every((v) => v !== null)) {
          tables.integers.set(name, values as number[]);
          count++;
        }
      } else {
        // A slice of structs: `{3, "wget"}`, `{"wget", 3}`, `{pos: 3, s: "wget"}`.
        const pairs = items.map((e) => {
          const inner = /^\{([\s\S]*)\}$/.exec(e)?.[1];
          if (inner === undefined) return null;
          const parts = elements(inner).map((p) => p.replace(/^\w+\s*:\s*/, ''));
          if (parts.length !== 2) return null;
          const [a, b] = parts as [string, string];
          if (LITERAL.test(b) && goIntegerLiteral(a) !== null) return { pos: goIntegerLiteral(a)!, text: goLiteralValue(b) };
          if (LITERAL.test(a) && goIntegerLiteral(b) !== null) return { pos: goIntegerLiteral(b)!, text: goLiteralValue(a) };
          return null;
        });
        if (pairs.every((p) => p !== null)) {
          tables.pairs.set(name, pairs as { pos: number; text: string }[]);
          count++;
        }
      }
    }
  }
  return tables;
}

/** The texts a table read in another order spells (joined as they are, and joined by spaces). */
function spelled(pieces: readonly string[]): string[] {
  const plain = pieces.join('');
  if (plain.length > MAX_TEXT) return [];
  return pieces.every((p) => p.length <= 1) ? [plain] : [plain, pieces.join(' ')];
}

/** Texts the package spells by reordering a constant string table (see above). */
export function goReorderedStrings(texts: readonly string[]): string[] {
  const joined = texts.join('\n');
  if (!/\bfor\b|\bsort\.|\bslices\.Sort/.test(joined)) return [];
  const tables = tablesOf(texts);
  const out: string[] = [];
  if (tables.integers.size > 0) {
    const seen = new Set<string>();
    // `for _, v := range IDX { … T[v] … }` / `for k := range IDX { … T[IDX[k]] … }` / `for k := 0; k < len(IDX); k++ { … T[IDX[k]] … }`.
    for (const m of joined.matchAll(/\bfor\s+(?:(\w+)\s*,\s*(\w+)\s*:=\s*range\s+(\w+)|(\w+)\s*:=\s*range\s+(\w+)|(\w+)\s*:=\s*0\s*;\s*\w+\s*<\s*len\s*\(\s*(\w+)\s*\)\s*;\s*\w+\s*(?:\+\+|\+=\s*1))\s*\{/g)) {
      const body = braceBody(joined, m.index + m[0].length - 1);
      if (body === null || body.length > 2000) continue;
      const index = m[3] ?? m[5] ?? m[7]!;
      const order = tables.integers.get(index);
      if (order === undefined) continue;
      const counter = m[1] ?? m[4] ?? m[6]!;
      const value = m[2];
      // An alphabet string indexed the same way (`const abc = "…"` … `abc[i]`): its characters are the table.
      for (const a of body.matchAll(/\b(\w+)\s*\[/g)) {
        const name = a[1]!;
        if (tables.strings.has(name) || tables.integers.has(name)) continue;
        const def = new RegExp(String.raw`\b${name}\s*(?::=|=)\s*("(?:[^"\\\n]|\\.){2,4096}"|\x60[^\x60]{2,4096}\x60)`).exec(joined);
        if (def !== null) tables.strings.set(name, [...goLiteralValue(def[1]!)]);
      }
      for (const [name, table] of tables.strings) {
        const direct = value !== undefined && value !== '_' && new RegExp(String.raw`\b${name}\s*\[\s*${value}\s*\]`).test(body);
        const nested = counter !== '_' && new RegExp(String.raw`\b${name}\s*\[\s*${index}\s*\[\s*${counter}\s*\]\s*\]`).test(body);
        if (!direct && !nested) continue;
        if (order.some((i) => i < 0 || i >= table.length)) continue;
        for (const t of spelled(order.map((i) => table[i]!))) {
          if (seen.has(t)) continue;
          out.push(t);
          seen.add(t);
        }
      }
    }
  }
  // Pieces with their positions, put in order by a sort on the position.
  for (const [name, pairs] of tables.pairs) {
    const sort = new RegExp(String.raw`\b(?:sort\.(?:Slice|SliceStable)|slices\.SortFunc|slices\.SortStableFunc)\s*\(\s*${name}\b[^{}]{0,120}\{(?:[^{}]{0,200}?([<>]))?`).exec(joined);
    if (sort === null) continue;
    const ordered = [...pairs].sort((a, b) => (sort[1] === '>' ? b.pos - a.pos : a.pos - b.pos));
    out.push(...spelled(ordered.map((p) => p.text)));
  }
  // A map from positions to pieces read by a counting loop.
  for (const [name, entries] of tables.maps) {
    if (!new RegExp(String.raw`\bfor\s+(\w+)\s*:=\s*\d+\s*;[^{]{0,60}\{[^{}]{0,400}\b${name}\s*\[\s*\1\s*\]`).test(joined)) continue;
    out.push(...spelled([...entries].sort((a, b) => a.pos - b.pos).map((e) => e.text)));
  }
  return out;
}

import { POPULAR_NPM, POPULAR_PYPI } from './popular-names.js';

export type Ecosystem = 'npm' | 'pypi';

/** Look-alike characters squatters swap in (`rn` for `m`, digits for letters). */
const CONFUSABLES: readonly [RegExp, string][] = [
  [/rn/g, 'm'],
  [/vv/g, 'w'],
  [/0/g, 'o'],
  [/1/g, 'l'],
  [/3/g, 'e'],
  [/5/g, 's'],
  [/\$/g, 's'],
];

/** PEP 503 normalization for PyPI; for npm, the name without its separators too. */
function squash(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '');
}

function unconfuse(name: string): string {
  let out = name.toLowerCase();
  for (const [from, to] of CONFUSABLES) out = out.replace(from, to);
  return out;
}

/** Levenshtein distance with adjacent transposition, stopping early above `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    for (let j = 0; j <= b.length; j++) prev2[j] = prev[j]!;
    prev = cur;
    if (rowMin > max) return max + 1;
  }
  return prev[b.length]!;
}

export interface TyposquatMatch {
  imitates: string;
  how: string;
}

/**
 * The popular package a name imitates, or null. The popular package itself, and names that only
 * extend a popular name (`lodash.merge`, `chalk-template`), are never matches.
 */
export function typosquatOf(name: string, ecosystem: Ecosystem): TyposquatMatch | null {
  const popular = ecosystem === 'npm' ? POPULAR_NPM : POPULAR_PYPI;
  const lower = name.toLowerCase();
  const normalized = ecosystem === 'pypi' ? lower.replace(/[-_.]+/g, '-') : lower;
  if (popular.some((p) => (ecosystem === 'pypi' ? p.replace(/[-_.]+/g, '-') : p) === normalized)) return null;
  // Squats of scoped names need the scope's owner to publish under a look-alike scope; only
  // unscoped names are compared (`@pinojs/redact` is not a squat of `react`).
  if (lower.startsWith('@')) return null;
  const bare = lower;
  for (const p of popular) {
    const pBare = p.startsWith('@') ? (p.split('/')[1] ?? p) : p;
    if (lower.startsWith('@') && !p.startsWith('@') && bare === pBare) {
      // `@someone/lodash` is a fork or a scoped build: not a squat by name alone.
      continue;
    }
    if (squash(bare) === squash(pBare) && bare !== pBare) return { imitates: p, how: 'same name with separators changed' };
    if (unconfuse(bare) === unconfuse(pBare) && bare !== pBare) return { imitates: p, how: 'look-alike characters' };
    if (pBare.length >= 5 && bare.length >= 5) {
      if (editDistance(bare, pBare, 1) === 1) return { imitates: p, how: 'one character away' };
    }
  }
  return null;
}

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

/** The name without its separators: `crossenv` is `cross-env` squashed. */
function squash(name: string): string {
  return name.replace(/[-_.]+/g, '');
}

function unconfuse(name: string): string {
  let out = name;
  for (const [from, to] of CONFUSABLES) out = out.replace(from, to);
  return out;
}

/** PEP 503: PyPI treats `python_dateutil` and `Python.Dateutil` as `python-dateutil`. */
function canonical(name: string, ecosystem: Ecosystem): string {
  const lower = name.toLowerCase();
  return ecosystem === 'pypi' ? lower.replace(/[-_.]+/g, '-') : lower;
}

interface Target {
  /** As listed. */
  popular: string;
  /** Canonical, and for a scoped name its bare part (`web3.js` for `@solana/web3.js`). */
  name: string;
  squashed: string;
  unconfused: string;
}

function targets(list: readonly string[], ecosystem: Ecosystem): Target[] {
  return list.map((popular) => {
    // A scoped popular name is imitated by its bare name (`web3js` for `@solana/web3.js`).
    const name = canonical(popular.startsWith('@') ? (popular.split('/')[1] ?? popular) : popular, ecosystem);
    return { popular, name, squashed: squash(name), unconfused: unconfuse(name) };
  });
}

// Computed once: a lockfile may list thousands of names, each compared with every popular one.
const POPULAR: Readonly<Record<Ecosystem, ReadonlySet<string>>> = {
  npm: new Set(POPULAR_NPM.map((n) => canonical(n, 'npm'))),
  pypi: new Set(POPULAR_PYPI.map((n) => canonical(n, 'pypi'))),
};
const TARGETS: Readonly<Record<Ecosystem, readonly Target[]>> = { npm: targets(POPULAR_NPM, 'npm'), pypi: targets(POPULAR_PYPI, 'pypi') };

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
  /** The popular name it imitates, as listed. */
  imitates: string;
  how: 'same name with separators changed' | 'look-alike characters' | 'one character away';
}

/**
 * The popular package a name imitates, or null: the same name with separators changed, with
 * look-alike characters, or (both names five characters or longer) one edit away (insert, delete,
 * replace, swap). A popular name itself (for PyPI, by its PEP 503 form), a scoped npm name (a squat
 * of a scope needs its own look-alike scope; `@pinojs/redact` is not `react`) and an ecosystem
 * other than npm and PyPI are never matches; the bare name of a scoped popular one (`core` of
 * `@angular/core`) does not match it. Used by the packages agent (the package's own name) and the
 * repositories agent (the dependencies a lockfile installs).
 */
export function typosquatOf(name: string, ecosystem: string): TyposquatMatch | null {
  if (ecosystem !== 'npm' && ecosystem !== 'pypi') return null;
  const own = canonical(name, ecosystem);
  if (POPULAR[ecosystem].has(own) || own.startsWith('@')) return null;
  const squashed = squash(own);
  const unconfused = unconfuse(own);
  for (const target of TARGETS[ecosystem]) {
    if (own === target.name) continue;
    if (squashed === target.squashed) return { imitates: target.popular, how: 'same name with separators changed' };
    if (unconfused === target.unconfused) return { imitates: target.popular, how: 'look-alike characters' };
    if (target.name.length >= 5 && own.length >= 5 && editDistance(own, target.name, 1) === 1) return { imitates: target.popular, how: 'one character away' };
  }
  return null;
}

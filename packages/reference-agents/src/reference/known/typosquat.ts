import { NEIGHBOURS_NPM, NEIGHBOURS_PYPI, POPULAR_NPM, POPULAR_PYPI } from './popular-names.js';
import { RANKED_LOOKALIKES_NPM, RANKED_LOOKALIKES_PYPI } from './ranked-lookalikes.js';

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

// Words of a canonical name, for the reordering test.
function words(name: string): string[] {
  return name.split(/[-_.]+/).filter((w) => w !== '');
}
// Language prefixes and suffixes squatters add to a popular name, or drop from one that has them.
// Not `.js`: `Three.js`, `Chart.js` are how a library's own name is written.
const PREFIX = /^(?:python3?[-_.]?|py3?[-_.]|py(?=[a-z]{4})|node(?:js)?[-_.]|js[-_.])/;
const SUFFIX = /(?:[-_.]python3?|[-_.]py3?|[-_.]node(?:js)?|(?:[-_]|(?<=[a-z\d]))js)$/;
/**
 * The name squashed without its language prefix, without its suffix, and without both (`requests` for
 * `python-requests-py`; `pyinstaller` for `pyinstaller-py`, whose `py` may be either).
 */
function strippedForms(name: string): string[] {
  const noPrefix = name.replace(PREFIX, '');
  const forms = [noPrefix, name.replace(SUFFIX, ''), noPrefix.replace(SUFFIX, '')].filter((f) => f !== name).map(squash);
  return [...new Set(forms)];
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
  /** Its words sorted (`dotenv-python` for `python-dotenv`). */
  sortedWords: string;
  /** Squashed without its language prefix or suffix (`dotenv` for `python-dotenv`), after each one taken off. */
  stripped: string[];
}

function targets(list: readonly string[], ecosystem: Ecosystem): Target[] {
  return list.map((popular) => {
    // A scoped popular name is imitated by its bare name (`web3js` for `@solana/web3.js`).
    const name = canonical(popular.startsWith('@') ? (popular.split('/')[1] ?? popular) : popular, ecosystem);
    return { popular, name, squashed: squash(name), unconfused: unconfuse(name), sortedWords: words(name).sort().join('-'), stripped: strippedForms(name) };
  });
}

// Computed once: a lockfile may list thousands of names, each compared with every popular one.
const POPULAR: Readonly<Record<Ecosystem, ReadonlySet<string>>> = {
  npm: new Set(POPULAR_NPM.map((n) => canonical(n, 'npm'))),
  pypi: new Set(POPULAR_PYPI.map((n) => canonical(n, 'pypi'))),
};
// Widely installed packages a few characters from a popular name (`scapy`, `psycopg`): never squats, never targets.
const NEIGHBOURS: Readonly<Record<Ecosystem, ReadonlySet<string>>> = {
  npm: new Set(NEIGHBOURS_NPM.map((n) => canonical(n, 'npm'))),
  pypi: new Set(NEIGHBOURS_PYPI.map((n) => canonical(n, 'pypi'))),
};
// Names the readings below match that are themselves widely used (`validatorjs`, `installer`): generated
// from the registries' download rankings (ranked-lookalikes.ts says how). Never squats; no targets either.
const RANKED: Readonly<Record<Ecosystem, ReadonlySet<string>>> = {
  npm: new Set(RANKED_LOOKALIKES_NPM.map((n) => canonical(n, 'npm'))),
  pypi: new Set(RANKED_LOOKALIKES_PYPI.map((n) => canonical(n, 'pypi'))),
};
const EXEMPTABLE: ReadonlySet<TyposquatMatch['how']> = new Set(['same words in another order', 'same name with a language prefix or suffix']);
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
  how: 'same name with separators changed' | 'look-alike characters' | 'one character away' | 'same words in another order' | 'same name with a language prefix or suffix';
}

export interface TyposquatOptions {
  /** Also the same words in another order (`dotenv-python` for `python-dotenv`, `yaml-js` for `js-yaml`). */
  reordered?: boolean;
  /**
   * Also the same name with a language prefix or suffix added or dropped (`python-requests`, `requests-py`,
   * `lodash-js`, `node-lodash`; `dotenv` for `python-dotenv`). Off where thousands of names are read (a
   * lockfile): old packages were often published so (`node-uuid`), and only a name an instruction picks is read so.
   */
  affixed?: boolean;
}


/**
 * The popular package a name imitates, or null: the same name with separators changed, with
 * look-alike characters, or (both names five characters or longer) one edit away (insert, delete,
 * replace, swap). A popular name itself (for PyPI, by its PEP 503 form), a widely used near neighbour
 * of one (hand-picked, or ranked by downloads: ranked-lookalikes.ts), a scoped npm name (a squat
 * of a scope needs its own look-alike scope; `@pinojs/redact` is not `react`) and an ecosystem
 * other than npm and PyPI are never matches; the bare name of a scoped popular one (`core` of
 * `@angular/core`) does not match it. Used by the packages agent (the package's own name) and the
 * repositories agent (the dependencies a lockfile installs).
 */
export function typosquatOf(name: string, ecosystem: string, options: TyposquatOptions = {}): TyposquatMatch | null {
  if (ecosystem !== 'npm' && ecosystem !== 'pypi') return null;
  const match = lookAlikeOf(name, ecosystem, options);
  // Only the looser readings spare a ranked name: one edit from a popular name (`loadash`) stays a look-alike
  // however often it is installed by mistake.
  if (match !== null && EXEMPTABLE.has(match.how) && RANKED[ecosystem].has(canonical(name, ecosystem))) return null;
  return match;
}

/**
 * The readings of typosquatOf without its exemption of ranked names: what scripts/gen-ranked-lookalikes.mjs
 * runs over the registries' most downloaded names to list those it must exempt.
 */
export function lookAlikeOf(name: string, ecosystem: Ecosystem, options: TyposquatOptions = {}): TyposquatMatch | null {
  const own = canonical(name, ecosystem);
  if (POPULAR[ecosystem].has(own) || NEIGHBOURS[ecosystem].has(own) || own.startsWith('@')) return null;
  const squashed = squash(own);
  const unconfused = unconfuse(own);
  const sorted = options.reordered === true ? words(own).sort().join('-') : '';
  // The name with its own language affixes taken off (`requests` for `python-requests`), if it has some.
  const bare = options.affixed === true ? strippedForms(own) : [];
  for (const target of TARGETS[ecosystem]) {
    if (own === target.name) continue;
    if (squashed === target.squashed) return { imitates: target.popular, how: 'same name with separators changed' };
    if (unconfused === target.unconfused) return { imitates: target.popular, how: 'look-alike characters' };
    if (target.name.length >= 5 && own.length >= 5 && editDistance(own, target.name, 1) === 1) return { imitates: target.popular, how: 'one character away' };
  }
  // The slower readings after every popular name was tried the usual ways.
  for (const target of TARGETS[ecosystem]) {
    if (own === target.name) continue;
    if (sorted !== '' && sorted.includes('-') && sorted === target.sortedWords) return { imitates: target.popular, how: 'same words in another order' };
    if (options.affixed === true && affixedOnce(squashed, bare, target)) return { imitates: target.popular, how: 'same name with a language prefix or suffix' };
  }
  return null;
}

/**
 * An affix added to the popular name (`python-requests`, `lodash-js`) or dropped from it (`dotenv`
 * for `python-dotenv`), four characters or more left. Never taken off both names at once: `python-shell`
 * (runs Python from Node) is not `shelljs`.
 */
function affixedOnce(squashed: string, bare: readonly string[], target: Target): boolean {
  if (bare.some((b) => b.length >= 4 && b === target.squashed)) return true;
  return squashed.length >= 4 && target.stripped.includes(squashed);
}

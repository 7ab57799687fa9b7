/**
 * The capability judge (packages/capability-findings.ts) over a skill: the scripts its documents tell
 * the agent to run are entries that run by themselves (the agent runs them when the skill says so),
 * and the skill's own JavaScript and Python modules they import are followed as in a package.
 */
import { posix } from 'node:path';
import type { AgentFinding } from '@vigil/core';
import type { CodeFacts } from '../code/code-facts.js';
import { javascriptFacts } from '../code/javascript/index.js';
import { pythonFacts } from '../code/python-facts.js';
import { CAPABILITY_PLANT_TITLE, CAPABILITY_REMOTE_EXEC_TITLE, capabilityFindings, capabilityModule, type AutoRunEntry, type CapabilityModule } from '../packages/capability-findings.js';
import { urlHosts } from '../packages/shell-command.js';

/** Code parsed at most per skill (a skill is a few small scripts; a vendored library is not read whole). */
const MAX_TOTAL = 2 * 1024 * 1024;
const MAX_FILE = 256 * 1024;
const CODE = /\.(?:py|js|cjs|mjs|ts|mts|cts)$/i;
/** Commands that run a script file. */
const RUNNER = '(?:python3?|node|uv\\s+run|npx\\s+tsx|bun|deno\\s+run)';

/**
 * Scripts a README tells its reader to run (`python poc.py --target …`, `node scripts/exploit.js`):
 * the paths of `code` that a run command in the document names.
 */
export function documentRunScripts(paths: readonly string[], document: string): string[] {
  return paths.filter((p) => CODE.test(p) && new RegExp(`${RUNNER}\\s+(?:\\S+/)?${escape(posix.basename(p))}\\b`).test(document) && (!p.includes('/') || new RegExp(`${escape(p)}\\b`).test(document) || !paths.some((o) => o !== p && posix.basename(o) === posix.basename(p))));
}

export interface SkillCode {
  path: string;
  text: string;
}

/**
 * Findings of the capability judge for a skill: `code` are its shipped scripts (tests and examples
 * left out by the caller), `documents` the text of its Markdown and text files.
 */
export function skillCapabilityFindings(code: readonly SkillCode[], documents: readonly string[], options: { entries?: readonly AutoRunEntry[] } = {}): AgentFinding[] {
  const byPath = new Map<string, SkillCode>();
  let total = 0;
  // With entries given (a repository's), every file may be reached: the bound is on what is parsed, below.
  for (const c of code) {
    if (!CODE.test(c.path) || c.text.length > MAX_FILE || (options.entries === undefined && total + c.text.length > MAX_TOTAL)) continue;
    total += c.text.length;
    byPath.set(c.path, c);
  }
  if (byPath.size === 0) return [];
  const docs = documents.join('\n');
  // A script the skill's documents name (`python scripts/sync.py`, `node scripts/run.mjs`, `scripts/sync.py`) is run by the agent.
  const entries: AutoRunEntry[] = options.entries?.filter((e) => byPath.has(e.rel)) ?? [...byPath.keys()].filter((p) => new RegExp(`(?:^|[\\s\`'"(/])${escape(p)}\\b|${RUNNER}\\s+(?:\\S+/)?${escape(posix.basename(p))}\\b`).test(docs)).map((rel) => ({ rel, when: 'agent' as const }));
  if (entries.length === 0) return [];
  const exists = (p: string) => byPath.has(p);
  const resolve = (spec: string, from: string, language: CodeFacts['language']): string | null => {
    const dir = posix.dirname(from);
    if (language === 'python') {
      const dots = /^\.*/.exec(spec)![0].length;
      const rest = spec.slice(dots).replace(/\./g, '/');
      let base = dir === '.' ? '' : dir;
      for (let k = 1; k < dots; k++) base = posix.dirname(base) === '.' ? '' : posix.dirname(base);
      // A script run as `python scripts/x.py` imports its siblings by their bare name; a package's modules from the top.
      const bases = dots > 0 ? [base] : [base, ''];
      return bases.flatMap((b) => [[b, rest].filter((x) => x !== '').join('/')]).flatMap((stem) => [`${stem}.py`, `${stem}/__init__.py`]).find(exists) ?? null;
    }
    if (!spec.startsWith('.')) return null;
    const stem = posix.normalize(posix.join(dir, spec));
    return [stem, `${stem}.js`, `${stem}.mjs`, `${stem}.cjs`, `${stem}.ts`, `${stem}/index.js`, stem.replace(/\.js$/, '.ts')].find(exists) ?? null;
  };
  const modules = new Map<string, CapabilityModule>();
  const queue = entries.map((e) => e.rel);
  let parsed = 0;
  while (queue.length > 0) {
    const rel = queue.shift()!;
    const c = byPath.get(rel);
    if (c === undefined || modules.has(rel) || parsed + c.text.length > MAX_TOTAL) continue;
    parsed += c.text.length;
    const facts = /\.py$/i.test(rel) ? pythonFacts(c.text) : javascriptFacts(c.text, { typescript: /\.[cm]?ts$/i.test(rel) });
    const mod = capabilityModule(rel, facts, c.text, resolve);
    modules.set(rel, mod);
    for (const target of mod.imports.values()) if (!modules.has(target)) queue.push(target);
  }
  // Hosts the skill's documents name are where it says its data goes.
  const documented = new Set([...docs.matchAll(/\bhttps?:\/\/[^\s)'"`<>]+/gi)].flatMap((m) => urlHosts(m[0]).slice(0, 1)).map((h) => h.toLowerCase()));
  // The skill's own rows judge what a script it runs writes and executes (persistence writes, download-and-run); the judge's reads against sends are what it adds here.
  return capabilityFindings(modules, entries, { documentedHosts: documented }, resolve).filter((f) => f.title !== CAPABILITY_REMOTE_EXEC_TITLE && f.title !== CAPABILITY_PLANT_TITLE);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

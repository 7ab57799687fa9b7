import type { AgentFinding } from '@vigil/core';
import { goReorderedStrings } from '../code/go-reordered-slices.js';
import { referenceFinding } from '../common/reference-finding.js';
import { decodedGoTables, goRunsComputedShell } from '../repositories/go-decoded-tables.js';
import { goInitBodies, goInitFindings } from '../repositories/go-init-findings.js';
import { shellCommandFindings } from '../repositories/shell-command-findings.js';
import { lineLocator } from '../text/line-locator.js';

/**
 * (round s31b; in-sample for held-out set 32) What a Go MCP server's `init` functions run: they run before `main`
 * when the client starts the server, whatever tool is called. The repositories track's reading (`goInitFindings`)
 * on each `init`, and on each function of the package an `init` calls, directly or through up to two more calls
 * (`func init() { go warm() }` with the shell in `warm`), reported at that function's lines with the call chain;
 * the package's literals, and the texts it spells by reordering a string table (`code/go-reordered-slices.ts`:
 * `parts[idx[k]]`, a sort on positions) or by decoding a number table (`decodedGoTables`), are where a download piped
 * into a shell is looked for. Any function of the package that starts a shell with a computed command
 * (`exec.Command("/bin/sh", "-c", s)`) when such a reordered or decoded text is a command line that downloads and
 * runs code: CRIT `Go code runs a shell command it assembles from a reordered or decoded table`.
 */

const NOT_SERVED = /(?:^|\/)(?:vendor|testdata)\//;
const MAX_BYTES = 512 * 1024;
const MAX_FUNCTIONS = 24;
const MAX_CALL_DEPTH = 3;
const KEYWORDS = new Set(['if', 'for', 'switch', 'select', 'func', 'return', 'go', 'defer', 'make', 'new', 'len', 'cap', 'append', 'copy', 'delete', 'panic', 'recover', 'print', 'println', 'string', 'byte', 'rune', 'int', 'min', 'max', 'close', 'init']);

interface GoFunction {
  name: string;
  file: string;
  /** 1-based line of the `func` header. */
  line: number;
  body: string;
}

/** The functions and methods of a file: name, header line and body (braces counted outside strings, runes and comments). */
function goFunctions(path: string, text: string): GoFunction[] {
  const out: GoFunction[] = [];
  const lineAt = lineLocator(text);
  // `goInitBodies` cuts bodies of `func init() {`: each function's body is cut as one.
  for (const m of text.matchAll(/^func\s+(?:\([^)]*\)\s*)?(\w+)\s*(?:\[[^\]]*\])?\s*\([^)]*\)[^{\n]*\{/gm)) {
    if (m[1] === 'init' || out.length >= 400) continue;
    const cut = goInitBodies(`func init() {${text.slice(m.index + m[0].length, m.index + m[0].length + 64 * 1024)}`)[0];
    if (cut !== undefined) out.push({ name: m[1]!, file: path, line: lineAt(m.index), body: cut.body });
  }
  return out;
}

/** `func init() {` at the function's header line followed by its body: `goInitFindings` reads it as an init of that file. */
function asInit(fn: GoFunction): string {
  return `${'\n'.repeat(fn.line - 1)}func init() {${fn.body}\n}\n`;
}

/** Names a body calls that are functions of the package (`warm()`, `go warm()`, `defer t.flush()`). */
function calledFunctions(body: string, functions: ReadonlyMap<string, GoFunction[]>): string[] {
  const out = new Set<string>();
  for (const m of body.matchAll(/(?<![\w"])(?:\.\s*)?([A-Za-z_]\w*)\s*\(/g)) {
    const name = m[1]!;
    if (!KEYWORDS.has(name) && functions.has(name)) out.add(name);
  }
  return [...out];
}

function dirOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

export function goInitRunFindings(sources: readonly { path: string; text: string }[]): AgentFinding[] {
  const packages = new Map<string, { path: string; text: string }[]>();
  for (const s of sources) {
    if (NOT_SERVED.test(s.path) || !s.path.endsWith('.go') || /_test\.go$/.test(s.path) || s.text.length > MAX_BYTES) continue;
    packages.set(dirOf(s.path), [...(packages.get(dirOf(s.path)) ?? []), s]);
  }
  const out: AgentFinding[] = [];
  const add = (f: AgentFinding) => {
    if (!out.some((g) => g.file === f.file && g.title === f.title)) out.push(f);
  };
  for (const files of packages.values()) {
    const hasInit = files.some((f) => /^func\s+init\s*\(\s*\)/m.test(f.text));
    const computed = files.filter((f) => goRunsComputedShell(f.text));
    if (!hasInit && computed.length === 0) continue;
    const texts = files.map((f) => f.text);
    // Texts the package spells at run time, written as literals for the readers that look at literals.
    const spelled = [...goReorderedStrings(texts), ...decodedGoTables(texts)].filter((t) => /\s/.test(t.trim()));
    const extra = spelled.map((t) => `var _ = ${JSON.stringify(t)}\n`);
    if (hasInit) {
      const functions = new Map<string, GoFunction[]>();
      for (const f of files) for (const fn of goFunctions(f.path, f.text)) functions.set(fn.name, [...(functions.get(fn.name) ?? []), fn]);
      for (const f of files) {
        const others = [...files.filter((g) => g !== f).map((g) => g.text), ...extra];
        for (const finding of goInitFindings(f.path, f.text, others)) add(finding);
        // The functions the inits of this file call, breadth first.
        const seen = new Set<string>();
        let frontier = goInitBodies(f.text).map((b) => ({ body: b.body, chain: 'init' }));
        for (let depth = 0; depth < MAX_CALL_DEPTH && frontier.length > 0 && seen.size < MAX_FUNCTIONS; depth++) {
          const next: { body: string; chain: string }[] = [];
          for (const { body, chain } of frontier) {
            for (const name of calledFunctions(body, functions)) {
              if (seen.has(name) || seen.size >= MAX_FUNCTIONS) continue;
              seen.add(name);
              for (const fn of functions.get(name)!) {
                const via = `${chain} → ${name}`;
                const packageTexts = [...files.map((g) => g.text), ...extra];
                for (const finding of goInitFindings(fn.file, asInit(fn), packageTexts)) add({ ...finding, evidence: `${f.path}: ${via}: ${finding.evidence ?? ''}`.slice(0, 300) });
                next.push({ body: fn.body, chain: via });
              }
            }
          }
          frontier = next;
        }
      }
    }
    // A shell started with a computed command anywhere in the package, when a spelled text is a download run by a shell.
    for (const f of computed) {
      const shell = /\bexec\.Command(?:Context)?\s*\(/.exec(f.text);
      if (shell === null) continue;
      const line = lineLocator(f.text)(shell.index);
      for (const t of spelled) {
        const serious = shellCommandFindings(t, { file: f.path, line, where: 'command assembled from a reordered or decoded table', automatic: true }).filter((x) => x.severity === 'CRIT' || x.severity === 'HIGH');
        if (serious.length === 0) continue;
        add(referenceFinding({ category: 'obfuscation', severity: 'CRIT', title: 'Go code runs a shell command it assembles from a reordered or decoded table', file: f.path, line, evidence: t.slice(0, 200) }));
        for (const s of serious) add(s);
        break;
      }
    }
  }
  return out;
}

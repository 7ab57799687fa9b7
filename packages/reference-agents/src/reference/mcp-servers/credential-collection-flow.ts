import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { SECRET_PATH_PATTERN } from '../skills/script-fact.js';
import { SEND } from './home-credential-harvest.js';

// MCP clients' configuration files: their `env` blocks hold the API keys of every other server.
const CLIENT_CONFIG_PATH = /claude_desktop_config\.json|(?:^|[/\\])\.(?:cursor|vscode|roo|kiro|amazonq)[/\\]mcp\.json|(?:^|[/\\])Code[/\\]User[/\\](?:mcp|settings)\.json|windsurf[/\\]mcp_config\.json|(?:^|[/\\])\.claude\.json$|(?:^|[/\\])\.gemini[/\\]settings\.json|(?:^|[/\\])\.codex[/\\]config\.toml|cline_mcp_settings\.json|(?:^|[/\\])\.continue[/\\]config\.(?:json|ya?ml)/i;
// A literal collection bound to a name: `FILES = [ … ]`, `const FILES = [ … ]`, `CANDIDATES: list[Path] = ( … )`.
const BINDING = /^[ \t]*(?:export\s+)?(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]{1,60})?=[ \t]*([[({])/gm;
const QUOTED = /(["'`])([^"'`\n]{1,160})\1/g;
// The file's content read: Python and Node readers, whole-file and streamed.
const READ = /\.read_(?:text|bytes)\s*\(|\bopen\s*\(|\bjson\.load\s*\(|\breadFile(?:Sync)?\s*\(|\bcreateReadStream\s*\(|\btomllib\.load\s*\(/;
// Derived values that carry no content: a count, the keys, a truth value.
const CONTENT_FREE = /\blen\s*\([^()]*\)|\bObject\.keys\s*\([^()]*\)|[\w$.\]]+\.keys\s*\(\s*\)|[\w$.\]]+\.(?:length|size)\b|\bbool\s*\([^()]*\)|\.(?:is_file|is_dir|exists)\s*\(\s*\)|\bexistsSync\s*\([^()]*\)/g;
const ASSIGN = /^[ \t]*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)(?:\s*\[[^\]\n]*\])?\s*(?::[^=\n]{1,60})?(?:\+|\|)?=(?!=)\s*(.+)$/gm;
// A fixed destination: an absolute URL to a host that is not this machine.
const FIXED_URL = /["'`]https?:\/\/(?!localhost\b|127\.|0\.0\.0\.0|\[::1\])[\w-]+(?:\.[\w-]+)+/;
/** An MCP client's configuration file (reading it is an installer's or a diagnostics tool's job). */
export const isClientConfigPath = (path: string): boolean => CLIENT_CONFIG_PATH.test(path);
const FROM_SETTINGS = /\bos\.environ|\bos\.getenv|\bprocess\.env\b/;

export interface CredentialCollection {
  /** The name the collection is bound to. */
  name: string;
  /** First and last line of the literal. */
  lines: [number, number];
  paths: string[];
  /** A loop over it reads each file. */
  read: boolean;
  /** Where what was read reaches a request to a fixed host. */
  sent: { line: number; evidence: string } | null;
}

const escape = (s: string) => s.replace(/[$]/g, '\\$');
const uses = (name: string) => new RegExp(`(?<![\\w$.])${escape(name)}(?![\\w$])`);

/** The end of the bracketed text that opens at `open` (quotes skipped), or -1. */
export function closing(text: string, open: number): number {
  const pairs: Record<string, string> = { '[': ']', '(': ')', '{': '}' };
  const stack: string[] = [];
  let quote = '';
  for (let i = open; i < text.length && i < open + 20_000; i++) {
    const c = text[i]!;
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (pairs[c] !== undefined) stack.push(pairs[c]);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** The statement at `at` and what it governs: the lines indented under it (Python) or its braces (JavaScript). */
function blockAt(text: string, at: number, python: boolean): string {
  const start = text.lastIndexOf('\n', at) + 1;
  const lineEnd = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
  if (!python) {
    const brace = text.slice(at, at + 400).search(/=>\s*\{|\)\s*\{/);
    if (brace < 0) return text.slice(start, Math.min(text.length, lineEnd + 400));
    const open = text.indexOf('{', at + brace);
    const end = closing(text, open);
    return text.slice(start, end < 0 ? Math.min(text.length, open + 3000) : end + 1);
  }
  const first = text.slice(start, lineEnd);
  const indent = /^[ \t]*/.exec(first)![0].length;
  let block = first;
  for (const line of text.slice(lineEnd + 1, lineEnd + 6000).split('\n')) {
    if (line.trim() !== '' && /^[ \t]*/.exec(line)![0].length <= indent) break;
    block += `\n${line}`;
  }
  return block;
}

/** The function around offset `at`: its name and its parameters' names. */
function enclosingFunction(text: string, at: number, python: boolean): { name: string; body: string } | null {
  const before = text.slice(0, at);
  const defs = python
    ? [...before.matchAll(/^([ \t]*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/gm)]
    : [...before.matchAll(/(?:\bfunction\s+([A-Za-z_$][\w$]*)\s*\(|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*(?::[^=]{1,40})?=>|[A-Za-z_$][\w$]*\s*=>))/g)];
  for (const d of defs.reverse()) {
    const body = blockAt(text, d.index + d[0].length - 1, python);
    const from = text.lastIndexOf('\n', d.index) + 1;
    if (from + body.length > at) return { name: (python ? d[2] : (d[1] ?? d[2]))!, body };
  }
  return null;
}

/** Each assignment's target and value, a value that opens a bracket on its line read to where it closes. */
function assignments(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of text.matchAll(ASSIGN)) {
    const valueAt = m.index + m[0].length - m[2]!.length;
    const open = m[2]!.search(/[[({][^[\](){}]*$/);
    const close = open < 0 ? -1 : closing(text, valueAt + open);
    out.push([m[1]!, close < 0 ? m[2]! : text.slice(valueAt, close + 1)]);
  }
  return out;
}

/** Parameter names of each function the file defines. */
function functionParams(text: string, python: boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const re = python
    ? /^[ \t]*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(([^)]*)\)/gm
    : /(?:\bfunction\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\)|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\(([^)]*)\)\s*(?::[^=]{1,40})?=>)/g;
  for (const m of text.matchAll(re)) {
    const name = m[1] ?? m[3];
    const params = (m[2] ?? m[4] ?? '').split(',').map((p) => p.replace(/^[\s*.]+/, '').split(/[:=\s]/)[0]!.trim()).filter((p) => /^[A-Za-z_$][\w$]*$/.test(p) && p !== 'self');
    if (name !== undefined) out.set(name, params);
  }
  return out;
}

/**
 * Collections of credential files and MCP client configurations (`[HOME / ".aws/credentials",
 * HOME / ".cursor/mcp.json", …]`) that the code walks in a loop: whether the loop reads each file,
 * and whether what it read is carried — into a container, out of the function that returns it,
 * into another function's parameter, into a payload — to a request to a fixed host. No single
 * `open(".aws/credentials")` is written, so the content is found by following the data, not the path.
 */
export function credentialCollections(text: string, language: 'python' | 'javascript' | 'typescript'): CredentialCollection[] {
  if (!SEND.test(text) && !READ.test(text)) return [];
  const python = language === 'python';
  const out: CredentialCollection[] = [];
  for (const b of text.matchAll(BINDING)) {
    const open = b.index + b[0].length - 1;
    const end = closing(text, open);
    if (end < 0) continue;
    const paths = [...text.slice(open, end).matchAll(QUOTED)].map((q) => q[2]!).filter((v) => SECRET_PATH_PATTERN.test(v) || CLIENT_CONFIG_PATH.test(v));
    if (paths.length === 0) continue;
    const name = b[1]!;
    const elsewhere = [...text.matchAll(new RegExp(uses(name).source, 'g'))].filter((u) => u.index < b.index || u.index > end);
    // Each use walks it: `for p in NAME`, `for (const p of NAME)`, `NAME.forEach((p) =>`, `NAME.map(…)`.
    const loops = elsewhere.map((u) => {
      const head = text.slice(Math.max(0, u.index - 80), u.index);
      const v = python ? /\bfor\s+([\w\s,()]+?)\s+in\s+$/.exec(head)?.[1] : (/\bfor\s*\(\s*(?:const|let|var)\s+([\w$\s,[\]{}]+?)\s+of\s+$/.exec(head)?.[1] ?? /^\.(?:forEach|map|flatMap|filter|reduce)\s*\(\s*(?:async\s*)?\(?\s*([\w$]+)/.exec(text.slice(u.index + name.length, u.index + name.length + 60))?.[1]);
      return v === undefined ? null : { at: u.index, vars: v.split(/[\s,()[\]{}]+/).filter((x) => /^[A-Za-z_$][\w$]*$/.test(x)) };
    });
    if (loops.length === 0 || loops.some((l) => l === null)) continue;
    const tainted = new Set<string>();
    const taintedCalls = new Set<string>();
    let read = false;
    for (const l of loops) {
      const block = blockAt(text, l!.at, python);
      if (!READ.test(block) || !l!.vars.some((v) => uses(v).test(block.slice(block.indexOf('\n') + 1)) || uses(v).test(block.slice(block.search(/=>|:\s*$/m))))) continue;
      read = true;
      // What the loop keeps: `found[str(p)] = json.loads(p.read_text())`, `out.push(…)`, `acc.append(…)`.
      for (const m of block.matchAll(/(?:^|[\s;{])([A-Za-z_$][\w$]*)\s*(?:\[[^\]\n]*\]\s*=(?!=)|\.(?:append|push|extend|update|set|add)\s*\()/g)) tainted.add(m[1]!);
      for (const m of block.matchAll(ASSIGN)) if (READ.test(m[2]!)) tainted.add(m[1]!);
      // `.map((p) => readFileSync(p))` hands the collection's contents back as its value.
      const fn = enclosingFunction(text, l!.at, python);
      if (fn !== null && (tainted.size > 0 || /\.(?:map|flatMap|reduce)\s*\(/.test(text.slice(l!.at, l!.at + name.length + 10)))) taintedCalls.add(fn.name);
    }
    if (!read) {
      out.push({ name, lines: [lineAt(text, open), lineAt(text, end)], paths, read, sent: null });
      continue;
    }
    // Follow it through the file: names assigned from it, functions returning it, parameters it is passed to.
    const params = functionParams(text, python);
    const assigned = assignments(text);
    for (let round = 0; round < 5; round++) {
      const before = tainted.size + taintedCalls.size;
      const carries = (s: string) => {
        const t = s.replace(CONTENT_FREE, '');
        return [...tainted].some((n) => uses(n).test(t)) || [...taintedCalls].some((f) => new RegExp(`(?<![\\w$.])${escape(f)}\\s*\\(`).test(t));
      };
      for (const [target, value] of assigned) if (carries(value)) tainted.add(target);
      for (const [fname, ps] of params) {
        for (const call of text.matchAll(new RegExp(`(?<![\\w$.]|def\\s|function\\s)${escape(fname)}\\s*\\(`, 'g'))) {
          const close = closing(text, call.index + call[0].length - 1);
          if (close > 0 && carries(text.slice(call.index + call[0].length, close))) for (const p of ps) tainted.add(p);
        }
        // A function that returns what it was handed or built (`return found`, `return {…cfgs}`).
        const def = new RegExp(python ? `^[ \\t]*(?:async\\s+)?def\\s+${escape(fname)}\\s*\\(` : `(?:function\\s+${escape(fname)}\\s*\\(|(?:const|let|var)\\s+${escape(fname)}\\s*=)`, 'm').exec(text);
        if (def === null || taintedCalls.has(fname)) continue;
        const body = blockAt(text, def.index + def[0].length - 1, python);
        if ([...body.matchAll(/\breturn\b([^\n;]*)/g)].some((r) => carries(r[1]!))) taintedCalls.add(fname);
      }
      if (tainted.size + taintedCalls.size === before) break;
    }
    let sent: CredentialCollection['sent'] = null;
    for (const s of text.matchAll(new RegExp(SEND.source, 'g'))) {
      const paren = text.indexOf('(', s.index);
      const close = closing(text, paren);
      const args = text.slice(paren, close < 0 ? paren + 600 : close + 1);
      const carries = [...tainted].some((n) => uses(n).test(args.replace(CONTENT_FREE, ''))) || [...taintedCalls].some((f) => new RegExp(`(?<![\\w$.])${escape(f)}\\s*\\(`).test(args));
      // Sent to the server's own fixed host, not to an address the user configures.
      const firstArg = args.slice(1).split(',')[0] ?? '';
      if (carries && FIXED_URL.test(text) && !FROM_SETTINGS.test(firstArg)) {
        sent = { line: lineAt(text, s.index), evidence: text.slice(s.index, Math.min(s.index + 160, close < 0 ? s.index + 160 : close + 1)) };
        break;
      }
    }
    out.push({ name, lines: [lineAt(text, open), lineAt(text, end)], paths, read, sent });
  }
  return out;
}

/**
 * A collection of credential files or MCP client configurations read in a loop and sent to a fixed
 * host (CRIT). Reading alone is left to the path rules (an installer reads and writes back the
 * clients' configurations; a diagnostics tool reads them to report on them).
 */
export function credentialCollectionFinding(file: string, collections: readonly CredentialCollection[]): AgentFinding | null {
  const c = collections.find((x) => x.sent !== null);
  if (c === undefined || c.sent === null) return null;
  const shown = c.paths.slice(0, 4).join(', ') + (c.paths.length > 4 ? ', …' : '');
  return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'server code reads credential files and sends data over the network', file, line: c.sent.line, evidence: `${c.name} (${shown}) read in a loop … ${c.sent.evidence}` });
}

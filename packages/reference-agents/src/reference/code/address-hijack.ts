import type { AgentFinding } from '@vigil/core';
import type { Node as AcornNode } from 'acorn';
import { fullAncestor } from 'acorn-walk';
import { referenceFinding } from '../common/reference-finding.js';
import { node, nodes, type N } from './javascript/estree.js';
import { patternNames } from './javascript/syntax-shapes.js';
import { parseJavaScript } from './parse-javascript.js';
import { inlineStringTableCalls } from './string-table-calls.js';
import { browserHookTargets, WALLET_TARGET } from './browser-hook-targets.js';

/**
 * Browser-side transaction and address hijacking shipped in a library (chalk/debug npm compromise,
 * September 2025): the code replaces the page's `fetch`, `XMLHttpRequest.prototype.open/send`, the
 * wallet provider's `request`/`send` or a signer's `sendTransaction`, and rewrites the crypto addresses
 * it sees to its own — a regular expression for `0x…`/base58/`bc1…` addresses, the nearest address by
 * string distance (Levenshtein) from a list of hard-coded ones. Text-based so one-line and minified
 * bundles read the same. A fetch polyfill or an HTTP mock replaces fetch but holds no addresses; a
 * wallet SDK validates addresses but does not replace the page's request functions, and a class that
 * defines its own `sendTransaction` (`Signer.prototype.sendTransaction = function …`) replaces nothing.
 */
const HOOK = /(?:\b(?:window|globalThis|self|global)|(?<![\w$.])[\w$]{1,2})\.fetch\s*=(?![=>])|XMLHttpRequest\.prototype\.(?:open|send|setRequestHeader)\s*=(?!=)|\b(?:ethereum|solana|tronWeb|tronLink|phantom\.solana)\.(?:request|send|sendAsync|enable|signTransaction|signAndSendTransaction)\s*=(?!=)|(?<!\bprototype|\b_?proto)\.(?:sendTransaction|signTransaction|signAndSendTransaction|signAllTransactions)\s*=(?!=)|defineProperty\(\s*(?:window|globalThis|[\w$]{1,2})\s*,\s*['"](?:fetch|ethereum|solana)['"]|new\s+Proxy\(\s*(?:(?:window|globalThis)\.)?(?:fetch|ethereum|XMLHttpRequest)\b/;
/** A regular expression written to find addresses: `0x[a-fA-F0-9]{40}`, base58 (`[1-9A-HJ-NP-Za-km-z]{32,44}`), `bc1[…]`, `[13][a-km-zA-HJ-NP-Z1-9]`. */
const ADDRESS_REGEX = /0x\[[0-9a-fA-F-]{3,12}\]\{40\}|\[[1-9A-HJ-NP-Za-km-z-]{10,20}\]\{(?:2\d|3\d),(?:3\d|4\d)\}|0x\[a-fA-F0-9\]\{40\}|\[1-9A-HJ-NP-Za-km-z\]\{3\d,4\d\}|bc1\[|\(?bc1\|?\[?|\[13\]\[a-km-zA-HJ-NP-Z1-9\]|T\[1-9A-HJ-NP-Za-km-z\]\{33\}/;
/** A string-distance function: the three-way minimum of an edit-distance table, or its usual names. */
const STRING_DISTANCE = /\blevenshtein\w*|\beditDistance\b|\b(?:stringDistance|stringSimilarity|similarity|hammingDistance|jaroWinkler|diceCoefficient)\b|Math\.min\(\s*[\w$.[\]+-]{1,40}?\s*\+\s*1\s*,\s*[\w$.[\]+-]{1,40}?\s*\+\s*1\s*,/i;
/** A wallet call replaced (not the page's fetch): what the user signs passes the replacement. */
const WALLET_HOOK = /\b(?:ethereum|solana|tronWeb|tronLink)\.(?:request|send|sendAsync|signTransaction|signAndSendTransaction)\s*=(?!=)|(?<!\bprototype|\b_?proto)\.(?:sendTransaction|signTransaction|signAndSendTransaction|signAllTransactions)\s*=(?!=)|new\s+Proxy\(\s*(?:(?:window|globalThis)\.)?ethereum\b|defineProperty\(\s*(?:window|globalThis|[\w$]{1,2})\s*,\s*['"](?:ethereum|solana)['"]/;
/** A transaction's recipient overwritten with a constant address or an item of a list. */
const RECIPIENT_REWRITE = /\.(?:to|recipient|toPubkey|destination|receiver|toAddress)\s*=(?!=)\s*(?:['"`](?:0x[a-fA-F0-9]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})['"`]|[\w$]+\s*\[)/;
const HARDCODED = /['"`](0x[a-fA-F0-9]{40}|bc1[a-z0-9]{39,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|T[1-9A-HJ-NP-Za-km-z]{33})['"`]/g;

export function addressHijackFinding(file: string, text: string): AgentFinding | null {
  const direct = hijackIn(file, text, false);
  if (direct !== null || text.length > 4_000_000) return direct;
  const viaAlias = hijackViaAliases(file, text, false);
  if (viaAlias !== null) return viaAlias;
  // The drainer's strings behind an obfuscator's encoded string table: read them back and look again.
  const inlined = inlineStringTableCalls(text);
  const viaTable = inlined === null ? null : (hijackIn(file, inlined, true) ?? hijackViaAliases(file, inlined, true));
  if (viaTable !== null) return viaTable;
  // (round s31b) The hook no text form spells: the global object or a provider reached through parameters and
  // helpers, member names folded from tables decoded in place (`[…].map(atob)`), read on the syntax tree.
  if (/\.html?$/i.test(file) || text.length > 1_000_000) return null;
  // Only where the swap machinery shows in the text (a whole-text address pattern, a distance beside an address pattern or
  // address, a recipient overwrite, or 3+ addresses beside a pattern built at run time): a validator's anchored pattern
  // or a CLI's "did you mean" distance alone does not pay for a tree.
  const machinery = GLOBAL_ADDRESS_REGEX.test(text) || (STRING_DISTANCE.test(text) && (ADDRESS_REGEX.test(text) || countAtLeast(text.matchAll(HARDCODED), 1))) || RECIPIENT_REWRITE.test(text) || (/\bRegExp\(/.test(text) && countAtLeast(text.matchAll(HARDCODED), 3));
  if (!machinery) return null;
  return hijackInTree(file, text);
}

function countAtLeast(it: Iterable<unknown>, n: number): boolean {
  let i = 0;
  for (const _ of it) if (++i >= n) return true;
  return false;
}

/**
 * An address pattern applied to a whole text (the `g` flag): what a swap replaces in, not what a validator checks. An
 * address shape (`0x`, `bc1`, `[13]`, `T[`, the base58 alphabet) then a `{n}`/`{n,m}` count of two digits, in a regex
 * literal or a `new RegExp('…', 'g')`.
 */
const GLOBAL_ADDRESS_REGEX = /(?:0x|bc1|\[13\]|T\[|1-9A-HJ-NP-Za-km-z)[^/'"`\n]{0,40}\{\d\d(?:,\s?\d\d)?\}[^/'"`\n]{0,10}\/[dimsuy]*g|(?:0x|bc1|\[13\]|T\[|1-9A-HJ-NP-Za-km-z)[^'"`\n]{0,40}\{\d\d(?:,\s?\d\d)?\}[^'"`\n]{0,10}['"`]\s*,\s*['"`][dimsuy]*g/;
const BARE_ADDRESS = /^(?:0x[a-fA-F0-9]{40}|bc1[a-z0-9]{39,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|T[1-9A-HJ-NP-Za-km-z]{33}|[1-9A-HJ-NP-Za-km-z]{43,44})$/;

/**
 * (round s31b) The hijack judged on hooks read from the syntax tree: a replaced page request function or
 * wallet method, and the swap machinery — a string distance beside a list of at least two addresses, or an
 * address pattern applied to whole texts (`g` flag) beside at least three — or a wallet method replaced by
 * one that overwrites the recipient with an address the code holds. Addresses and patterns decoded on the
 * tree count as written.
 */
function hijackInTree(file: string, text: string): AgentFinding | null {
  const found = browserHookTargets(text, /\.[cm]?tsx?$/i.test(file));
  if (found === null || found.hooks.length === 0) return null;
  const hidden = found.decoded.join('\n');
  const regex = ADDRESS_REGEX.test(text) || ADDRESS_REGEX.test(hidden);
  const globalRegex = GLOBAL_ADDRESS_REGEX.test(text) || GLOBAL_ADDRESS_REGEX.test(hidden);
  const distance = STRING_DISTANCE.test(text);
  const addresses = new Set([...[...text.matchAll(HARDCODED)].map((m) => m[1]!), ...found.decoded.filter((d) => BARE_ADDRESS.test(d))]);
  const swaps = addresses.size >= 2 && ((distance && (regex || addresses.size >= 3)) || (globalRegex && addresses.size >= 3));
  const wallet = found.hooks.find((h) => WALLET_TARGET.test(h.target));
  const held = addresses.size + (/['"`][1-9A-HJ-NP-Za-km-z]{32,44}['"`]/.test(text) ? 1 : 0);
  const redirects = held >= 1 && wallet !== undefined && RECIPIENT_REWRITE.test(text);
  if (!swaps && !redirects) return null;
  const hook = (swaps ? found.hooks[0] : wallet)!;
  const line = text.slice(0, hook.at).split('\n').length;
  const how = [regex ? 'an address pattern' : '', distance ? 'a string-distance match' : '', addresses.size > 0 ? `${addresses.size} hard-coded addresses` : ''].filter(Boolean).join(', ');
  const targets = [...new Set(found.hooks.map((h) => h.target))].slice(0, 5).join(', ');
  return referenceFinding({ category: 'malware', severity: 'CRIT', title: 'Intercepts browser requests or wallet calls and rewrites crypto addresses', file, line, evidence: `${text.slice(hook.at, hook.at + 60).replace(/\s+/g, ' ')} … replaces ${targets} (names resolved on the syntax tree) … ${how}` });
}

/**
 * The hook read through names of the global object or a hooked object. Through an alias the hook
 * reads less surely (`root.fetch = require('cross-fetch')` is a polyfill): a list of addresses is
 * required. A finding on the text is confirmed on the syntax tree, with each use of a name resolved
 * to its binding: a parameter or local of the same name (`function patch(root) { root.fetch = … }`) is not the alias.
 */
function hijackViaAliases(file: string, text: string, decoded: boolean): AgentFinding | null {
  const named = globalAliasesNamed(text, null);
  if (named === null || hijackIn(file, named, decoded, true) === null) return null;
  const scoped = globalAliasesNamed(text, /\.[cm]?tsx?$/i.test(file));
  return scoped === null ? null : hijackIn(file, scoped, decoded, true);
}

/** A name bound to the global object only (`const root = typeof window !== 'undefined' ? window : globalThis`). */
const GLOBAL_ALIAS = /(?:\b(?:var|let|const)\s+|,\s*)([\w$]+)\s*=\s*([^;,\n]{1,160}?)\s*(?=[;,\n])/g;
const GLOBAL_ONLY = /^(?:[\s()?:|&!=]|typeof\b|\b(?:window|globalThis|self|global)\b|['"]undefined['"]|\bvoid 0\b)+$/;
/** A name bound to a hooked object: the XMLHttpRequest prototype or a wallet provider (`const w = window.ethereum`). */
const HOOKED_ALIAS = /^(?:(?:window|globalThis|self|global)\.)?(XMLHttpRequest\.prototype|ethereum|solana|phantom\.solana|tronWeb|tronLink)$/;

/** What a value bound to a name stands for: `window` (the global object only), a hooked object, or nothing. */
function aliasOf(value: string): string | undefined {
  const v = value.trim();
  if (GLOBAL_ONLY.test(v) && /\b(?:window|globalThis|self|global)\b/.test(v)) return 'window';
  return HOOKED_ALIAS.exec(v)?.[1];
}

/**
 * The text with names of the global object written as `window` and names of the XMLHttpRequest
 * prototype or a wallet provider written as such (`root.fetch =` → `window.fetch =`,
 * `proto.send =` → `XMLHttpRequest.prototype.send =`); null when no such name was found. With
 * `typescript` not null the text is parsed (as TypeScript when true) and only the uses that resolve
 * to the alias's own binding are renamed (all of them when the text does not parse).
 */
function globalAliasesNamed(text: string, typescript: boolean | null): string | null {
  let out = text;
  let changed = false;
  for (let round = 0; round < 2; round++) {
    const renames = new Map<string, string>();
    for (const m of out.matchAll(GLOBAL_ALIAS)) {
      const [, name, value] = m;
      if (/^(?:window|globalThis|self|global|ethereum|solana)$/.test(name!)) continue;
      const to = aliasOf(value!);
      if (to !== undefined) renames.set(name!, to);
      if (renames.size > 20) break;
    }
    if (renames.size === 0) break;
    const uses = typescript === null ? undefined : aliasUses(out, renames, typescript);
    // Every use found in this round's text first, then renamed at once (a rename moves the offsets after it).
    const edits: { at: number; name: string; to: string }[] = [];
    for (const [name, to] of renames) {
      const esc = name.replace(/\$/g, '\\$');
      for (const m of out.matchAll(new RegExp(`(?<![\\w$.])${esc}(?=\\s*(?:\\.|\\[\\s*'))`, 'g'))) if (uses === undefined || uses.has(m.index)) edits.push({ at: m.index, name, to });
    }
    if (edits.length === 0) continue;
    edits.sort((a, b) => a.at - b.at);
    let next = '';
    let from = 0;
    for (const e of edits) {
      next += out.slice(from, e.at) + e.to;
      from = e.at + e.name.length;
    }
    out = next + out.slice(from);
    changed = true;
  }
  return changed ? out.replace(/\[\s*'([A-Za-z_$][\w$]*)'\s*\]/g, '.$1') : null;
}

/**
 * Start offsets of the uses of the renamed names (`root` in `root.fetch`) whose binding is one that
 * holds the alias's value: each use is resolved through the functions (parameters, declarations)
 * and `catch` clauses around it, as the binding `const root = … window …` is. Undefined when the
 * text does not parse.
 */
function aliasUses(text: string, renames: ReadonlyMap<string, string>, typescript: boolean): Set<number> | undefined {
  const parsed = parseJavaScript(text, typescript);
  if (parsed === null) return undefined;
  const declared = new Map<number, Set<string>>();
  const declare = (scope: number, name: string) => {
    if (!renames.has(name)) return;
    const set = declared.get(scope) ?? new Set<string>();
    set.add(name);
    declared.set(scope, set);
  };
  // Scopes innermost first: functions and catch clauses by start offset, the module as -1.
  const chainOf = (ancestors: N[], end: number): number[] => {
    const chain: number[] = [];
    for (let i = end - 1; i >= 0; i--) {
      const a = ancestors[i]!;
      if (/^(?:FunctionDeclaration|FunctionExpression|ArrowFunctionExpression|CatchClause)$/.test(a.type)) chain.push(a.start);
    }
    chain.push(-1);
    return chain;
  };
  // Where `var` and function declarations go: the nearest function (not a catch clause), else the module.
  const functionOf = (ancestors: N[], end: number): number => {
    for (let i = end - 1; i >= 0; i--) if (/^(?:FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(ancestors[i]!.type)) return ancestors[i]!.start;
    return -1;
  };
  const bound: { name: string; chain: number[] }[] = [];
  const used: { at: number; name: string; chain: number[] }[] = [];
  fullAncestor(parsed.program as unknown as AcornNode, (raw, _state, ancestorsRaw) => {
    const n = raw as unknown as N;
    const ancestors = ancestorsRaw as unknown as N[];
    switch (n.type) {
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        for (const p of nodes(n.params)) for (const name of patternNames(p)) declare(n.start, name);
        const id = node(n.id)?.name as string | undefined;
        if (id !== undefined) declare(n.type === 'FunctionDeclaration' ? functionOf(ancestors, ancestors.length - 1) : n.start, id);
        break;
      }
      case 'ClassDeclaration': {
        const id = node(n.id)?.name as string | undefined;
        if (id !== undefined) declare(functionOf(ancestors, ancestors.length - 1), id);
        break;
      }
      case 'CatchClause':
        for (const name of patternNames(node(n.param))) declare(n.start, name);
        break;
      case 'ImportSpecifier':
      case 'ImportDefaultSpecifier':
      case 'ImportNamespaceSpecifier':
        declare(-1, String(node(n.local)?.name ?? ''));
        break;
      case 'VariableDeclarator': {
        const chain = chainOf(ancestors, ancestors.length);
        for (const name of patternNames(node(n.id))) declare(functionOf(ancestors, ancestors.length), name);
        const id = node(n.id);
        const init = node(n.init);
        if (id?.type === 'Identifier' && init !== undefined && renames.get(id.name as string) === aliasOf(text.slice(init.start, init.end))) bound.push({ name: id.name as string, chain });
        break;
      }
      case 'AssignmentExpression': {
        const left = node(n.left);
        const right = node(n.right);
        if (n.operator === '=' && left?.type === 'Identifier' && right !== undefined && renames.get(left.name as string) === aliasOf(text.slice(right.start, right.end))) bound.push({ name: left.name as string, chain: chainOf(ancestors, ancestors.length) });
        break;
      }
      case 'MemberExpression': {
        const object = node(n.object);
        if (object?.type === 'Identifier' && renames.has(object.name as string)) used.push({ at: object.start, name: object.name as string, chain: chainOf(ancestors, ancestors.length) });
        break;
      }
      default:
        break;
    }
  });
  const bindingOf = (name: string, chain: number[]): number => chain.find((s) => declared.get(s)?.has(name) === true) ?? -1;
  const aliases = new Set(bound.map((b) => `${bindingOf(b.name, b.chain)}\u0000${b.name}`));
  return new Set(used.filter((u) => aliases.has(`${bindingOf(u.name, u.chain)}\u0000${u.name}`)).map((u) => u.at));
}

function hijackIn(file: string, text: string, decoded: boolean, listRequired = false): AgentFinding | null {
  const hook = HOOK.exec(text);
  if (hook === null) return null;
  const regex = ADDRESS_REGEX.test(text);
  const distance = STRING_DISTANCE.test(text);
  const addresses = new Set([...text.matchAll(HARDCODED)].map((m) => m[1]!));
  // Either address-finding machinery (a pattern, a string distance) beside a list of addresses, or a wallet
  // call replaced by one that overwrites the recipient with an address the code holds.
  const swaps = (regex || distance) && (addresses.size >= 3 || (distance && regex && !listRequired));
  const held = addresses.size + (/['"`][1-9A-HJ-NP-Za-km-z]{32,44}['"`]/.test(text) ? 1 : 0);
  const redirects = held >= 1 && WALLET_HOOK.test(text) && RECIPIENT_REWRITE.test(text);
  if (!swaps && !redirects) return null;
  const line = text.slice(0, hook.index).split('\n').length;
  const how = [regex ? 'an address pattern' : '', distance ? 'a string-distance match' : '', addresses.size > 0 ? `${addresses.size} hard-coded addresses` : ''].filter(Boolean).join(', ');
  return referenceFinding({ category: 'malware', severity: 'CRIT', title: 'Intercepts browser requests or wallet calls and rewrites crypto addresses', file, line, evidence: `${text.slice(hook.index, hook.index + 60).replace(/\s+/g, ' ')} … ${how}${decoded ? ' (strings read from an encoded string table)' : ''}` });
}

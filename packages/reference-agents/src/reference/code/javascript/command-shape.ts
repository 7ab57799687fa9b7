/**
 * The shape of a JavaScript process call's command (`CommandShape`, packages/received-command.ts): its
 * argument vector element by element, and whether its command line quotes every computed part.
 *
 * The call's constant strings (`CallFact.argStrings`) cannot tell an element from a constant inside a
 * computed one (`spawn('sudo', [d.toString('utf8')])` gives `sudo utf8`), nor a quoted value from a
 * raw one (review of round s28).
 */

import type { CommandShape } from '../../packages/received-command.js';
import { dirPath } from './dir-path.js';
import { node, nodes, type N } from './estree.js';
import type { Resolve } from './resolve.js';

/** Calls whose first argument is the program and whose second is its argument vector. */
const PROGRAM_FIRST = /^(?:child_process\.(?:spawn|spawnSync|execFile|execFileSync)|spawn|spawnSync|execFile|execFileSync|execa(?:\.sync|\.node)?|cross-spawn(?:\.sync)?)$/;
/** Calls whose first argument is a command line. */
const LINE = /^(?:child_process\.(?:exec|execSync)|execSync|exec|shelljs\.exec|execa\.(?:command|commandSync))$/;
/**
 * Quoting for a POSIX shell, and conversions to a number: what they return is one word without shell
 * syntax. Not `JSON.stringify`: inside its double quotes `$(…)` and backquotes still run.
 */
const QUOTES = /^(?:shell-quote\.quote|shell-escape|any-shell-escape|shescape\.(?:quote|quoteAll)|Number|parseInt|parseFloat|Number\.parseInt|Number\.parseFloat|Math\.\w+)$/;
/** Names of the running Node.js: a computed program that is node itself. */
const NODE_ITSELF = /^(?:process\.execPath|process\.argv0)$/;
/** Elements of a vector read at most (a command has a few). */
const MAX_ELEMENTS = 64;

type BoundTo = (name: string) => N | undefined;

/** The shape of a process call `q`; undefined when it has none to give. */
export function jsCommandShape(r: Resolve, boundTo: BoundTo, q: string, args: readonly N[]): CommandShape | undefined {
  const first = args[0];
  if (first === undefined) return undefined;
  if (PROGRAM_FIRST.test(q)) return { argv: [element(r, boundTo, first), ...vector(r, boundTo, args[1])] };
  if (LINE.test(q)) return { shellQuoted: quotedLine(r, first) };
  return undefined;
}

/** An element: its constant, a path from the file's location, `node` for the running Node.js, else null. */
function element(r: Resolve, boundTo: BoundTo, n: N): string | null {
  const v = r.fold(n);
  if (v !== undefined) return v;
  if (NODE_ITSELF.test(r.qualify(n) ?? '')) return 'node';
  const path = dirPath(r, boundTo, n);
  return path !== undefined && /^\$(?:DIR|CWD|FILE)(?:\/|$)/.test(path) && !path.includes('?') ? path : null;
}

/**
 * The elements of the argument vector: an array literal's (a spread is one computed element); none for
 * an options object or a callback in its place; one computed element for anything else (a name is not
 * followed: an array bound once can still grow with `push`).
 */
function vector(r: Resolve, boundTo: BoundTo, n: N | undefined): (string | null)[] {
  if (n === undefined || n.type === 'ObjectExpression' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') return [];
  if (n.type !== 'ArrayExpression') return [null];
  const out: (string | null)[] = [];
  for (const e of nodes(n.elements).slice(0, MAX_ELEMENTS)) out.push(e.type === 'SpreadElement' ? null : element(r, boundTo, e));
  return out;
}

/** A value that is one shell word without shell syntax: a constant, a quoted value, a number. */
function quoted(r: Resolve, n: N | undefined, depth = 0): boolean {
  if (n === undefined || depth > 4) return false;
  if (r.fold(n) !== undefined) return true;
  if (n.type !== 'CallExpression') return false;
  const q = r.qualify(node(n.callee)) ?? '';
  if (QUOTES.test(q)) return true;
  // `String(Number(x))`: the string of a quoted value.
  return q === 'String' && nodes(n.arguments).length === 1 && quoted(r, nodes(n.arguments)[0], depth + 1);
}

/** A command line written in the call that starts with constant text and quotes each computed part (a template literal or a `+` chain). */
function quotedLine(r: Resolve, n: N): boolean {
  if (n.type === 'TemplateLiteral') {
    const head = (nodes(n.quasis)[0]?.value as { cooked?: string | null } | undefined)?.cooked ?? '';
    return head.trim() !== '' && nodes(n.expressions).every((e) => quoted(r, e));
  }
  if (n.type !== 'BinaryExpression' || n.operator !== '+') return false;
  const leaves: N[] = [];
  const collect = (e: N | undefined, depth: number) => {
    if (e === undefined) return;
    if (e.type === 'BinaryExpression' && e.operator === '+' && depth < 32 && r.fold(e) === undefined) {
      collect(node(e.left), depth + 1);
      collect(node(e.right), depth + 1);
    } else leaves.push(e);
  };
  collect(n, 0);
  const head = r.fold(leaves[0]);
  return head !== undefined && head.trim() !== '' && leaves.every((e) => quoted(r, e));
}

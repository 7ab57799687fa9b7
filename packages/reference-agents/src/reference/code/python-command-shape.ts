/**
 * The shape of a Python process call's command (`CommandShape`, packages/received-command.ts): its
 * argument vector element by element, and whether its command line quotes every computed part.
 *
 * The call's constant strings (`CallFact.argStrings`) cannot tell an element from a constant inside a
 * computed one (`["ssh", h["addr"], "uptime"]` and `["ssh", "host", h["cmd"]]` both give three words;
 * `subprocess.run(task["argv"])` gives `argv`), nor a quoted value from a raw one (review of round s28).
 */

import type { SyntaxNode } from '@lezer/common';
import type { CommandShape } from '../packages/received-command.js';
import { namedChildren } from './parse-python.js';

/** What the shape reader needs from the Python fact reader. */
export interface PythonShapeContext {
  src(n: SyntaxNode): string;
  qualify(n: SyntaxNode | undefined): string | undefined;
  fold(n: SyntaxNode | undefined): string | undefined;
  /** A path built from the file's location (`$DIR/fixtures/app.py`), see python-paths.ts. */
  pathOf(n: SyntaxNode | undefined): string | undefined;
}

/** `subprocess` calls whose first argument is an argument vector (or, with `shell=True`, a command line). */
const VECTOR_CALL = /^(?:subprocess\.(?:run|call|check_call|check_output|Popen)|Popen|check_output|check_call)$/;
/** Calls whose first argument is a command line. */
const LINE_CALL = /^(?:os\.(?:system|popen)|subprocess\.(?:getoutput|getstatusoutput)|commands\.getoutput)$/;
/** Quoting for a POSIX shell, and conversions to a number: what they return is one word without shell syntax. */
const QUOTES = /^(?:shlex\.quote|pipes\.quote|shlex\.join|int|float|len|round|abs)$/;
/** Conversions of `%`-formatting that print a number. */
const NUMERIC_CONVERSION = /^[diouxXeEfFgG]$/;
/** Names of the running interpreter: a computed program that is Python itself. */
const PYTHON_ITSELF = /^(?:sys\.executable|sys\._base_executable)$/;
/** Elements of a vector read at most (a command has a few). */
const MAX_ELEMENTS = 64;

/** The shape of a process call `q` with positional arguments `args`; undefined when it has none to give. */
export function pythonCommandShape(ctx: PythonShapeContext, q: string, args: readonly SyntaxNode[]): CommandShape | undefined {
  const first = args[0];
  if (first === undefined) return undefined;
  if (LINE_CALL.test(q)) return { shellQuoted: quotedLine(ctx, first) };
  if (!VECTOR_CALL.test(q)) return undefined;
  // A string is a command line with `shell=True` and the program alone without it; a vector is read element by element.
  if (first.name === 'String' || first.name === 'FormatString' || first.name === 'BinaryExpression' || first.name === 'CallExpression') {
    const line = quotedLine(ctx, first);
    return isVectorExpression(first) ? { argv: vector(ctx, first), shellQuoted: false } : { argv: [element(ctx, first)], shellQuoted: line };
  }
  return { argv: vector(ctx, first) };
}

/** `[...] + rest`: a vector written as a sum of lists. */
function isVectorExpression(n: SyntaxNode): boolean {
  return n.name === 'ArrayExpression' || n.name === 'TupleExpression' || (n.name === 'BinaryExpression' && n.firstChild !== null && isVectorExpression(n.firstChild));
}

/** An element: its constant, a path from the file's location, `python` for the running interpreter, else null. */
function element(ctx: PythonShapeContext, n: SyntaxNode): string | null {
  const v = ctx.fold(n);
  if (v !== undefined) return v;
  if (PYTHON_ITSELF.test(ctx.qualify(n) ?? '')) return 'python';
  const path = ctx.pathOf(n);
  return path !== undefined && /^\$(?:DIR|CWD|FILE)(?:\/|$)/.test(path) && !path.includes('?') ? path : null;
}

/**
 * The elements of a vector: a list or tuple literal, or a sum of them (`["nice", "-n", "10"] + cmd.split()`).
 * Anything else (a name, `cmd.split()`, `task["argv"]`) is computed whole: one null, which a caller
 * reads as a computed program. A name is not followed: a list bound once can still grow (`cmd.append(x)`).
 */
function vector(ctx: PythonShapeContext, n: SyntaxNode, depth = 0): (string | null)[] {
  if ((n.name === 'ArrayExpression' || n.name === 'TupleExpression') && depth < 8) {
    const out: (string | null)[] = [];
    for (const e of namedChildren(n).slice(0, MAX_ELEMENTS)) out.push(e.name === 'ArrayComprehensionExpression' ? null : e.name === 'StarExpression' || /^\*/.test(ctx.src(e)) ? null : element(ctx, e));
    return out;
  }
  if (n.name === 'BinaryExpression' && depth < 8) {
    const kids = namedChildren(n);
    const op = n.firstChild?.nextSibling;
    if (op !== null && op !== undefined && ctx.src(op).trim() === '+' && kids.length >= 2) return [...vector(ctx, kids[0]!, depth + 1), ...vector(ctx, kids.at(-1)!, depth + 1)];
  }
  return [null];
}

/** A value that is one shell word without shell syntax: a constant, a quoted value, a number. */
function quoted(ctx: PythonShapeContext, n: SyntaxNode | undefined, depth = 0): boolean {
  if (n === undefined || depth > 4) return false;
  if (ctx.fold(n) !== undefined) return true;
  if (n.name === 'ParenthesizedExpression') return quoted(ctx, namedChildren(n)[0], depth + 1);
  if (n.name !== 'CallExpression') return false;
  const [callee, argList] = namedChildren(n);
  const q = ctx.qualify(callee) ?? '';
  if (QUOTES.test(q)) return true;
  // `str(int(x))`: the string of a quoted value.
  return q === 'str' && argList !== undefined && argValues(argList).length === 1 && quoted(ctx, argValues(argList)[0], depth + 1);
}

/** The values of an argument list, positional and keyword (`name=value` gives `value`). */
function argValues(argList: SyntaxNode): SyntaxNode[] {
  const kids = namedChildren(argList);
  const out: SyntaxNode[] = [];
  for (let i = 0; i < kids.length; i++) {
    if (kids[i + 1]?.name === 'AssignOp') i += 2;
    if (kids[i] !== undefined) out.push(kids[i]!);
  }
  return out;
}

/**
 * A command line that starts with constant text and quotes each computed part: an f-string, a `+`
 * chain, `%`-formatting or `.format` written in the call (a name is not followed: it may be bound again).
 */
function quotedLine(ctx: PythonShapeContext, n: SyntaxNode): boolean {
  if (n.name === 'FormatString') {
    const reps = namedChildren(n).filter((k) => k.name === 'FormatReplacement');
    const opening = /^[a-zA-Z]{1,2}(?:'''|"""|'|")/.exec(ctx.src(n))?.[0].length ?? 0;
    const head = reps[0] === undefined ? ctx.src(n) : ctx.src(n).slice(opening, reps[0].from - n.from);
    return head.trim() !== '' && reps.every((r) => numericSpec(ctx, r) || quoted(ctx, namedChildren(r)[0]));
  }
  if (n.name === 'BinaryExpression') {
    const op = ctx.src(n.firstChild?.nextSibling ?? n).trim();
    const kids = namedChildren(n);
    const head = ctx.fold(kids[0]);
    if (head === undefined || head.trim() === '') return op === '+' && kids[0]?.name === 'BinaryExpression' && quotedLine(ctx, kids[0]) && quoted(ctx, kids.at(-1));
    if (op === '+') return quoted(ctx, kids.at(-1));
    if (op !== '%') return false;
    // `"kill -%s %d" % (sig, pid)`: each value a quoted one or printed as a number.
    const conversions = [...head.replace(/%%/g, '').matchAll(/%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?([a-zA-Z])/g)].map((m) => m[1] ?? '');
    const operand = kids.at(-1);
    const items = operand?.name === 'TupleExpression' ? namedChildren(operand) : operand === undefined ? [] : [operand];
    return items.every((item, i) => NUMERIC_CONVERSION.test(conversions[i] ?? '') || quoted(ctx, item));
  }
  if (n.name === 'CallExpression') {
    const [callee, argList] = namedChildren(n);
    const parts = callee === undefined ? [] : namedChildren(callee);
    if (callee?.name !== 'MemberExpression' || ctx.src(parts.at(-1) ?? callee) !== 'format') return false;
    const head = ctx.fold(parts[0]);
    if (head === undefined || /^\s*\{/.test(head)) return false;
    return argList !== undefined && argValues(argList).every((a) => quoted(ctx, a));
  }
  return false;
}

/** An f-string replacement printed with a numeric presentation type (`{n:d}`, `{t:.2f}`) and no conversion. */
function numericSpec(ctx: PythonShapeContext, replacement: SyntaxNode): boolean {
  if (replacement.getChild('FormatConversion') !== null) return false;
  const spec = replacement.getChild('FormatSpec');
  return spec !== null && /^:[^{}]*[bdoxXneEfFgG%]$/.test(ctx.src(spec));
}

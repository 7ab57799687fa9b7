import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { shellCommandFindings } from './shell-command-findings.js';

/**
 * Go code that hides the command it hands a shell as a table of numbers and decodes it in a loop
 * (`for i, v := range tbl { b[i] = byte(v) ^ 0x2f ^ byte(i%7) }`): the typosquatted Go modules of 2025
 * (boltdb-go/bolt, Socket) kept `wget … | /bin/bash` that way in a function the library calls, not only in
 * `init`. The loop's expression is evaluated over each table of the package (integer arithmetic on the
 * element and its index only, never code), and what decodes to a command line gets the shell checks.
 */

/** A shell started with a command that is not a literal: `exec.Command("/bin/sh", "-c", s)`. */
const GO_SHELL_DYNAMIC = /\bexec\.Command(?:Context)?\s*\(\s*(?:\w+\s*,\s*)?"(?:[\w/.-]*\/)?(?:sh|bash|zsh|dash|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)"\s*,\s*"(?:-c|\/c|-Command)"\s*,\s*[^")]/;
/** `name = []int{…}` (or byte, uint8, int32, rune; a fixed-length array too). */
const TABLE = /\b(\w+)\s*(?::=|=)\s*\[\d*\](?:u?int(?:8|16|32|64)?|byte|rune)\s*\{([\d\s,xXa-fA-F]{16,20000})\}/g;
/** The decode loop: `for i, v := range t {` … `out[i] = <expr>` (or `append(out, <expr>)`). */
const LOOP = /\bfor\s+(\w+)\s*,\s*(\w+)\s*:=\s*range\s+\w+\s*\{([^{}]{0,400})\}/g;
const ASSIGN = /\w+\[\s*(\w+)\s*\]\s*=\s*([^\n;]+)|\bappend\s*\(\s*\w+\s*,\s*([^\n;]+)\)\s*$/m;
const MAX_TABLES = 20;
const MAX_LENGTH = 4096;

type Token = { kind: 'num'; value: number } | { kind: 'var'; name: string } | { kind: 'op'; op: string } | { kind: 'paren'; open: boolean };
const PRECEDENCE: Record<string, number> = { '*': 5, '/': 5, '%': 5, '<<': 5, '>>': 5, '&': 5, '&^': 5, '+': 4, '-': 4, '|': 4, '^': 4 };

/** Tokens of an integer expression in the element and index names, or null when it holds anything else (a call, a field, a string). */
function tokenize(expr: string, names: readonly string[]): Token[] | null {
  // Conversions change only the width: `byte(x)` is `(x)` here, the result is cut to a byte at the end.
  const src = expr.replace(/\b(?:u?int(?:8|16|32|64)?|byte|rune)\s*\(/g, '(');
  const out: Token[] = [];
  const re = /\s*(0[xX][0-9a-fA-F]+|\d+|[A-Za-z_]\w*|<<|>>|&\^|[-+*/%&|^()])/y;
  let at = 0;
  while (at < src.length) {
    re.lastIndex = at;
    const m = re.exec(src);
    if (m === null) return src.slice(at).trim() === '' ? out : null;
    at = re.lastIndex;
    const t = m[1]!;
    if (/^\d|^0[xX]/.test(t)) out.push({ kind: 'num', value: Number(t) });
    else if (/^[A-Za-z_]/.test(t)) {
      if (!names.includes(t)) return null;
      out.push({ kind: 'var', name: t });
    } else if (t === '(' || t === ')') out.push({ kind: 'paren', open: t === '(' });
    else out.push({ kind: 'op', op: t });
  }
  return out;
}

/** The expression as a function of the variables (shunting-yard to postfix), or null. */
function compile(tokens: Token[]): ((vars: Record<string, number>) => number | null) | null {
  const output: Token[] = [];
  const ops: Token[] = [];
  let expectOperand = true;
  for (const t of tokens) {
    if (t.kind === 'num' || t.kind === 'var') {
      output.push(t);
      expectOperand = false;
    } else if (t.kind === 'paren' && t.open) {
      ops.push(t);
      expectOperand = true;
    } else if (t.kind === 'paren') {
      while (ops.length > 0 && !(ops[ops.length - 1]!.kind === 'paren')) output.push(ops.pop()!);
      if (ops.pop() === undefined) return null;
    } else {
      // A unary minus or complement is written `0 - x` / `0 ^ x`.
      if (expectOperand) output.push({ kind: 'num', value: 0 });
      while (ops.length > 0) {
        const top = ops[ops.length - 1]!;
        if (top.kind !== 'op' || (PRECEDENCE[top.op] ?? 0) < (PRECEDENCE[t.op] ?? 0)) break;
        output.push(ops.pop()!);
      }
      ops.push(t);
      expectOperand = true;
    }
  }
  while (ops.length > 0) {
    const t = ops.pop()!;
    if (t.kind === 'paren') return null;
    output.push(t);
  }
  return (vars) => {
    const stack: number[] = [];
    for (const t of output) {
      if (t.kind === 'num') stack.push(t.value);
      else if (t.kind === 'var') stack.push(vars[t.name] ?? 0);
      else if (t.kind === 'op') {
        const b = stack.pop();
        const a = stack.pop();
        if (a === undefined || b === undefined) return null;
        const ops: Record<string, () => number> = { '*': () => a * b, '/': () => (b === 0 ? NaN : Math.trunc(a / b)), '%': () => (b === 0 ? NaN : a % b), '<<': () => a << b, '>>': () => a >> b, '&': () => a & b, '&^': () => a & ~b, '+': () => a + b, '-': () => a - b, '|': () => a | b, '^': () => a ^ b };
        const v = ops[t.op]?.();
        if (v === undefined || !Number.isFinite(v)) return null;
        stack.push(v);
      }
    }
    return stack.length === 1 ? stack[0]! : null;
  };
}

/** Each number table of the texts decoded through each decode loop of the texts, when the result reads as text. */
export function decodedGoTables(texts: readonly string[]): string[] {
  const joined = texts.join('\n');
  if (!/\brange\b/.test(joined)) return [];
  const tables = [...joined.matchAll(TABLE)].slice(0, MAX_TABLES).map((m) => (m[2] ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '').map(Number));
  const decoders: Array<{ index: string; value: string; run: (vars: Record<string, number>) => number | null }> = [];
  for (const m of joined.matchAll(LOOP)) {
    const assign = ASSIGN.exec(m[3] ?? '');
    const expr = assign?.[2] ?? assign?.[3];
    if (expr === undefined) continue;
    const tokens = tokenize(expr.trim(), [m[1]!, m[2]!]);
    const run = tokens === null || !tokens.some((t) => t.kind === 'var' && t.name === m[2]) ? null : compile(tokens);
    if (run !== null) decoders.push({ index: m[1]!, value: m[2]!, run });
  }
  const out: string[] = [];
  for (const table of tables) {
    if (table.length > MAX_LENGTH || table.some((n) => !Number.isInteger(n))) continue;
    for (const d of decoders) {
      const bytes = table.map((v, i) => d.run({ [d.index]: i, [d.value]: v }));
      if (bytes.some((b) => b === null)) continue;
      const text = Buffer.from(bytes.map((b) => (b as number) & 255)).toString('latin1');
      // Text: printable ASCII (a command line), not the noise a wrong guess gives.
      if ([...text].filter((c) => /[\x20-\x7e]/.test(c)).length >= text.length * 0.95) out.push(text);
    }
  }
  return out;
}

/**
 * A Go file that starts a shell with a computed command, when a number table of its package decodes
 * through the package's decode loop to a command line: the shell checks on that command (CRIT when it
 * downloads and runs code), and the hiding itself HIGH.
 */
/** Whether the file starts a shell with a command that is not a literal (its package is then worth reading). */
export function goRunsComputedShell(text: string): boolean {
  return GO_SHELL_DYNAMIC.test(text);
}

export function goDecodedCommandFindings(path: string, text: string, packageTexts: readonly string[]): AgentFinding[] {
  const shell = GO_SHELL_DYNAMIC.exec(text);
  if (shell === null || /_test\.go$/.test(path)) return [];
  const line = text.slice(0, shell.index).split('\n').length;
  for (const decoded of decodedGoTables([text, ...packageTexts])) {
    if (!/\s/.test(decoded) || !/^[\w./~-]/.test(decoded.trim())) continue;
    const signals = shellCommandFindings(decoded, { file: path, line, where: 'command decoded from a number table', automatic: true });
    const serious = signals.filter((f) => f.severity === 'CRIT' || f.severity === 'HIGH');
    return [
      referenceFinding({ category: 'obfuscation', severity: serious.length > 0 ? 'CRIT' : 'HIGH', title: 'Go code runs a shell command it decodes from a number table', file: path, line, evidence: `${shell[0]}… = ${decoded.slice(0, 200)}` }),
      ...serious,
    ];
  }
  return [];
}

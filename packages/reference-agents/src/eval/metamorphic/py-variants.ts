import type { SyntaxNode } from '@lezer/common';
import { namedChildren, parsePython, pythonStringValue } from '../../reference/code/parse-python.js';
import { applyEdits, type Edit } from './edits.js';
import { encodePy, pyLiteral, splitConcat, type StringEncoding } from './encode-string.js';
import { dirOf, freeSibling, freshName, type FileContext, type FileRewrite } from './variant-context.js';

interface Parsed {
  top: SyntaxNode;
  nodes: SyntaxNode[];
  text: string;
}

function parse(ctx: FileContext): Parsed | null {
  const tree = parsePython(ctx.text);
  const nodes: SyntaxNode[] = [];
  let errors = 0;
  tree.iterate({
    enter: (n) => {
      if (n.type.isError) errors++;
      nodes.push(n.node);
    },
  });
  // A file the parser had to repair is not rewritten: the edit could land in the repaired part.
  if (errors > 0) return null;
  return { top: tree.topNode, nodes, text: ctx.text };
}

const src = (p: Parsed, n: SyntaxNode): string => p.text.slice(n.from, n.to);

function inside(n: SyntaxNode, names: RegExp): boolean {
  for (let a = n.parent; a !== null; a = a.parent) if (names.test(a.name)) return true;
  return false;
}

/** String literals (`str`, not bytes or f-strings) that may be replaced by an expression. */
function stringSites(p: Parsed): { node: SyntaxNode; value: string }[] {
  const out: { node: SyntaxNode; value: string }[] = [];
  for (const n of p.nodes) {
    if (n.name !== 'String') continue;
    const raw = src(p, n);
    if (!/^[rRuU]?('|")/.test(raw)) continue;
    const parent = n.parent;
    if (parent === null || parent.name === 'ContinuedString' || parent.name === 'ExpressionStatement' || /Pattern/.test(parent.name)) continue;
    if (inside(n, /^(FormatString|Decorator)$/)) continue;
    const value = pythonStringValue(raw);
    if ([...value].length < 2) continue;
    out.push({ node: n, value });
  }
  return out;
}

/** Where import lines may go: after the module docstring and `from __future__` imports (or leading comments). */
function importPoint(p: Parsed): number {
  let at = 0;
  const lead = /^(#[^\n]*\n|\s*\n)*/.exec(p.text);
  if (lead !== null) at = lead[0].length;
  for (const s of namedChildren(p.top)) {
    const t = src(p, s);
    if ((s.name === 'ExpressionStatement' && s.firstChild?.name === 'String' && s.from <= at + 1) || (s.name === 'ImportStatement' && /^from\s+__future__/.test(t))) {
      const nl = p.text.indexOf('\n', s.to);
      at = nl < 0 ? p.text.length : nl + 1;
    } else break;
  }
  return at;
}

function withImports(p: Parsed, edits: Edit[], lines: string[]): Edit[] {
  const at = importPoint(p);
  const needsNl = at > 0 && p.text[at - 1] !== '\n';
  return [...edits, { from: at, to: at, text: `${needsNl ? '\n' : ''}${lines.join('\n')}\n` }];
}

/** (a) Every eligible string literal re-encoded. */
export function encodeStringsPy(ctx: FileContext, how: StringEncoding): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const edits = stringSites(p).map(({ node, value }) => ({ from: node.from, to: node.to, text: encodePy(value, how, ctx.rng) }));
  if (edits.length === 0) return null;
  return applyEdits(ctx.text, how === 'base64' ? withImports(p, edits, ['import base64']) : edits);
}

/** How another module of the same directory is imported: relative inside a package, by name next to a script. */
function siblingImport(ctx: FileContext, modulePath: string, names: string[]): string {
  const dir = dirOf(ctx.path);
  const mod = modulePath.slice(modulePath.lastIndexOf('/') + 1).replace(/\.py$/, '');
  const pkg = ctx.files.has(dir === '' ? '__init__.py' : `${dir}/__init__.py`);
  return `from ${pkg ? '.' : ''}${mod} import ${names.join(', ')}`;
}

/** (b) Every eligible string literal moved to a sibling `consts.py` and imported from it. */
export function liftStringsPy(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const sites = stringSites(p);
  if (sites.length === 0) return null;
  const constsPath = freeSibling(ctx.files, dirOf(ctx.path), 'consts', '.py');
  const used = new Set<string>();
  const names: string[] = [];
  const lines: string[] = [];
  const edits: Edit[] = [];
  for (const { node, value } of sites) {
    const name = freshName(ctx, used, 'S').toUpperCase();
    names.push(name);
    lines.push(`${name} = ${pyLiteral(value)}`);
    edits.push({ from: node.from, to: node.to, text: name });
  }
  ctx.files.set(constsPath, `${lines.join('\n')}\n`);
  return applyEdits(ctx.text, withImports(p, edits, [siblingImport(ctx, constsPath, names)]));
}

interface PyBinding {
  local: string;
  /** The imported module (`os`, `.util`, `a.b`). */
  module: string;
  member: string | null;
  /** The name node to rename, and whether it already has an `as`. */
  nameNode: SyntaxNode;
  aliased: boolean;
}

function importBindings(p: Parsed): PyBinding[] {
  const out: PyBinding[] = [];
  for (const s of p.nodes) {
    if (s.name !== 'ImportStatement') continue;
    const kids: SyntaxNode[] = [];
    for (let c = s.firstChild; c !== null; c = c.nextSibling) kids.push(c);
    const isFrom = kids[0]?.name === 'from';
    let i = 1;
    let module = '';
    if (isFrom) {
      while (i < kids.length && kids[i]!.name !== 'import') module += src(p, kids[i++]!);
      i++;
    }
    let dotted = '';
    let first: SyntaxNode | null = null;
    const flush = (asNode: SyntaxNode | null): void => {
      if (first === null) return;
      if (isFrom) out.push({ local: src(p, asNode ?? first), module, member: dotted, nameNode: asNode ?? first, aliased: asNode !== null });
      else if (!dotted.includes('.') || asNode !== null) out.push({ local: src(p, asNode ?? first), module: dotted, member: null, nameNode: asNode ?? first, aliased: asNode !== null });
      first = null;
      dotted = '';
    };
    for (; i < kids.length; i++) {
      const k = kids[i]!;
      if (k.name === 'VariableName') {
        if (first === null) first = k;
        dotted += src(p, k);
      } else if (k.name === '.') dotted += '.';
      else if (k.name === 'as') {
        flush(kids[i + 1] ?? null);
        i++;
      } else if (k.name === ',' || k.name === ')') flush(null);
    }
    flush(null);
  }
  return out;
}

/** Edits renaming `VariableName`s (not keyword-argument names, not import statements) in a range. */
function renameEdits(p: Parsed, map: Map<string, string>, from = 0, to = Infinity): Edit[] {
  const edits: Edit[] = [];
  for (const n of p.nodes) {
    if (n.name !== 'VariableName' || n.from < from || n.to > to) continue;
    const name = src(p, n);
    const next = map.get(name);
    if (next === undefined) continue;
    if (n.parent?.name === 'ImportStatement') continue;
    if (n.parent?.name === 'ArgList' && n.nextSibling?.name === 'AssignOp') continue;
    edits.push({ from: n.from, to: n.to, text: next });
  }
  return edits;
}

/** (c1) Imports aliased: `import subprocess as sp`, `from os import system as run`, every use renamed. */
export function aliasModulesPy(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const used = new Set<string>();
  const map = new Map<string, string>();
  const edits: Edit[] = [];
  for (const b of importBindings(p)) {
    if (b.aliased || b.module === '__future__' || map.has(b.local)) continue;
    const alias = freshName(ctx, used);
    map.set(b.local, alias);
    edits.push({ from: b.nameNode.to, to: b.nameNode.to, text: ` as ${alias}` });
  }
  if (map.size === 0) return null;
  return applyEdits(ctx.text, [...edits, ...renameEdits(p, map)]);
}

const BUILTIN_SINKS = new Set(['eval', 'exec', 'compile', '__import__']);

function definedNames(p: Parsed): Set<string> {
  const out = new Set<string>();
  for (const n of p.nodes) {
    if (n.name !== 'VariableName') continue;
    const parent = n.parent?.name;
    if ((parent === 'AssignStatement' && n.nextSibling?.name === 'AssignOp') || parent === 'FunctionDefinition' || parent === 'ClassDefinition' || parent === 'ParamList') out.add(src(p, n));
  }
  return out;
}

/** (c2) Names built at run time: `getattr(__import__('o' + 's'), 'sys' + 'tem')(...)`. */
export function dynamicNamesPy(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const defined = definedNames(p);
  const bindings = new Map(importBindings(p).filter((b) => !b.module.startsWith('.')).map((b) => [b.local, b]));
  const edits: Edit[] = [];
  const cat = (s: string): string => (s.length >= 2 ? splitConcat(s, ctx.rng, 'py') : pyLiteral(s));
  for (const n of p.nodes) {
    if (n.name !== 'CallExpression') continue;
    const callee = n.firstChild;
    if (callee === null) continue;
    if (callee.name === 'VariableName') {
      const name = src(p, callee);
      const b = bindings.get(name);
      if (BUILTIN_SINKS.has(name) && !defined.has(name) && !bindings.has(name)) edits.push({ from: callee.from, to: callee.to, text: `getattr(__import__(${cat('builtins')}), ${cat(name)})` });
      else if (b !== undefined && b.member !== null) edits.push({ from: callee.from, to: callee.to, text: `getattr(__import__(${cat(b.module)}, fromlist=[${cat(b.member)}]), ${cat(b.member)})` });
    } else if (callee.name === 'MemberExpression') {
      const obj = callee.firstChild;
      const prop = callee.lastChild;
      if (obj?.name !== 'VariableName' || prop?.name !== 'PropertyName') continue;
      const b = bindings.get(src(p, obj));
      if (b === undefined || b.member !== null || b.module.includes('.')) continue;
      edits.push({ from: callee.from, to: callee.to, text: `getattr(__import__(${cat(b.module)}), ${cat(src(p, prop))})` });
    }
  }
  return edits.length === 0 ? null : applyEdits(ctx.text, edits);
}

/** (d) Each call of an imported function or module member (or eval/exec/compile) made through a helper in a sibling module. */
export function wrapSinksPy(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const defined = definedNames(p);
  const bindings = new Map(importBindings(p).map((b) => [b.local, b]));
  const helperPath = freeSibling(ctx.files, dirOf(ctx.path), 'helpers', '.py');
  const used = new Set<string>();
  const head = new Map<string, string>();
  const fns: string[] = [];
  const names: string[] = [];
  const edits: Edit[] = [];
  const bindHelper = (b: PyBinding): string => {
    const key = `${b.module}:${b.member ?? ''}`;
    const known = head.get(key);
    if (known !== undefined) return known.split(' as ').pop()!;
    const local = freshName(ctx, used, '_m');
    head.set(key, b.member === null ? `import ${b.module} as ${local}` : `from ${b.module} import ${b.member} as ${local}`);
    return local;
  };
  for (const n of p.nodes) {
    if (n.name !== 'CallExpression') continue;
    const callee = n.firstChild;
    const args = n.lastChild;
    if (callee === null || args?.name !== 'ArgList') continue;
    let target: string | null = null;
    let hint = 'call';
    if (callee.name === 'VariableName') {
      const name = src(p, callee);
      const b = bindings.get(name);
      if (BUILTIN_SINKS.has(name) && !defined.has(name) && b === undefined) [target, hint] = [name, name.replace(/_/g, '')];
      else if (b !== undefined && b.member !== null) [target, hint] = [bindHelper(b), b.member];
    } else if (callee.name === 'MemberExpression') {
      const obj = callee.firstChild;
      const prop = callee.lastChild;
      const b = obj?.name === 'VariableName' ? bindings.get(src(p, obj)) : undefined;
      if (b !== undefined && b.member === null && prop?.name === 'PropertyName') [target, hint] = [`${bindHelper(b)}.${src(p, prop)}`, src(p, prop)];
    }
    if (target === null) continue;
    // The helper mirrors the call: positional parameters, then keyword-only ones; stars pass through.
    const positional: string[] = [];
    const keywords: string[] = [];
    let star = false;
    for (let c = args.firstChild; c !== null; c = c.nextSibling) {
      if (c.name === '*' || c.name === '**') star = true;
      if (c.name === 'VariableName' && c.nextSibling?.name === 'AssignOp') {
        keywords.push(src(p, c));
        c = c.nextSibling.nextSibling ?? c.nextSibling;
      } else if (/^[A-Z]/.test(c.name) && c.name !== 'ArgList') positional.push(`a${positional.length}`);
    }
    const name = freshName(ctx, used, hint.replace(/\W/g, '') || 'call');
    const params = star ? ['*args', '**kwargs'] : [...positional, ...(keywords.length > 0 ? ['*', ...keywords] : [])];
    const passed = star ? ['*args', '**kwargs'] : [...positional, ...keywords.map((k) => `${k}=${k}`)];
    fns.push(`def ${name}(${params.join(', ')}):\n    return ${target}(${passed.join(', ')})`);
    names.push(name);
    edits.push({ from: callee.from, to: callee.to, text: name });
  }
  if (names.length === 0) return null;
  ctx.files.set(helperPath, `${[...head.values()].join('\n')}\n\n\n${fns.join('\n\n\n')}\n`);
  return applyEdits(ctx.text, withImports(p, edits, [siblingImport(ctx, helperPath, names)]));
}

/** (e) Local variables of functions renamed (scoped to the function), and module-level names no other file mentions. */
export function renameIdentifiersPy(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const used = new Set<string>();
  const edits: Edit[] = [];
  const imports = new Set(importBindings(p).map((b) => b.local));
  const assignedIn = (scope: SyntaxNode): Set<string> => {
    const out = new Set<string>();
    for (const n of p.nodes) {
      if (n.name !== 'VariableName' || n.from < scope.from || n.to > scope.to) continue;
      const parent = n.parent;
      if (parent === null) continue;
      const assigned = (parent.name === 'AssignStatement' && n.nextSibling?.name === 'AssignOp') || (parent.name === 'ForStatement' && n.nextSibling?.name === 'in') || (parent.name === 'WithStatement' && n.prevSibling?.name === 'as');
      if (assigned) out.add(src(p, n));
    }
    return out;
  };
  const scoped = (scope: SyntaxNode): Set<string> => {
    const out = new Set<string>();
    for (const n of p.nodes) if (n.name === 'ScopeStatement' && n.from >= scope.from && n.to <= scope.to) for (const v of namedChildren(n)) out.add(src(p, v));
    return out;
  };
  const fstringNames = new Set<string>();
  for (const n of p.nodes) if (n.name === 'FormatString' && n.firstChild === null) for (const m of src(p, n).matchAll(/[A-Za-z_]\w*/g)) fstringNames.add(m[0]);
  // Top-level functions (undecorated) and functions' locals.
  const topMap = new Map<string, string>();
  const others = [...ctx.files].filter(([path]) => path !== ctx.path).map(([, t]) => t).join('\n');
  for (const s of namedChildren(p.top)) {
    if (s.name !== 'FunctionDefinition') continue;
    const nameNode = s.getChild('VariableName');
    if (nameNode === null) continue;
    const name = src(p, nameNode);
    if (name.startsWith('__') || name === 'main' || fstringNames.has(name) || new RegExp(`\\b${name}\\b`).test(others)) continue;
    topMap.set(name, freshName(ctx, used, 'fn'));
  }
  const functionNodes = p.nodes.filter((n) => n.name === 'FunctionDefinition');
  const localEdits: Edit[] = [];
  for (const f of functionNodes) {
    const body = f.getChild('Body');
    if (body === null) continue;
    const params = new Set((f.getChild('ParamList') === null ? [] : namedChildren(f.getChild('ParamList')!)).filter((n) => n.name === 'VariableName').map((n) => src(p, n)));
    const nonlocal = scoped(body);
    const map = new Map<string, string>();
    for (const name of assignedIn(body)) {
      if (params.has(name) || nonlocal.has(name) || imports.has(name) || topMap.has(name) || fstringNames.has(name) || name === 'self') continue;
      map.set(name, freshName(ctx, used, 'v'));
    }
    // Nested functions rename their own locals; a name renamed in an outer function is renamed throughout it.
    if (map.size > 0) localEdits.push(...renameEdits(p, map, body.from, body.to));
  }
  edits.push(...renameEdits(p, topMap), ...localEdits);
  if (edits.length === 0) return null;
  // Keep the first edit for a position (an outer function's rename wins over an inner one's).
  const seen = new Set<number>();
  return applyEdits(ctx.text, edits.filter((e) => (seen.has(e.from) ? false : (seen.add(e.from), true))));
}

import type { Node } from 'acorn';
import { fullAncestor } from 'acorn-walk';
import { parseJavaScript } from '../../reference/code/parse-javascript.js';
import { applyEdits, type Edit } from './edits.js';
import { encodeJs, jsLiteral, splitConcat, type StringEncoding } from './encode-string.js';
import { dirOf, freeSibling, freshName, type FileContext, type FileRewrite } from './variant-context.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESTree nodes are walked generically here */
type N = any;

interface Parsed {
  program: N;
  /** Every node with its ancestors (the node last), in walk order. */
  nodes: { node: N; parent: N | null }[];
  isModule: boolean;
  typescript: boolean;
}

function parse(ctx: FileContext): Parsed | null {
  const typescript = /\.(m|c)?tsx?$/.test(ctx.path);
  const parsed = parseJavaScript(ctx.text, typescript);
  if (parsed === null || parsed.mode !== 'strict') return null;
  const nodes: { node: N; parent: N | null }[] = [];
  fullAncestor(parsed.program as Node, (node: N, _state: unknown, ancestors: N[]) => {
    nodes.push({ node, parent: ancestors.length > 1 ? ancestors[ancestors.length - 2] : null });
  });
  const body = (parsed.program as N).body as N[];
  const isModule = /\.m[jt]s$/.test(ctx.path) || body.some((s) => /^(Import|Export)/.test(s.type)) || (ctx.esmPackage && !/\.c[jt]s$/.test(ctx.path));
  return { program: parsed.program, nodes, isModule: isModule && !body.some((s) => isRequireDecl(s)), typescript };
}

function isRequireCall(n: N): boolean {
  return n?.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments.length === 1 && n.arguments[0].type === 'Literal' && typeof n.arguments[0].value === 'string';
}

function isRequireDecl(s: N): boolean {
  return s.type === 'VariableDeclaration' && s.declarations.some((d: N) => isRequireCall(d.init));
}

/** String literals that may be replaced by an expression without changing what the code does. */
function stringSites(p: Parsed, text: string): N[] {
  const out: N[] = [];
  for (const { node, parent } of p.nodes) {
    if (node.type !== 'Literal' || typeof node.value !== 'string' || node.value.length < 2) continue;
    if (text.slice(node.start, node.end) !== node.raw) continue;
    if (parent === null) continue;
    if (/^(Import|Export)/.test(parent.type)) continue;
    if ((parent.type === 'Property' || parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') && parent.key === node && !parent.computed) continue;
    if (parent.type === 'ExpressionStatement') continue;
    if (parent.type === 'ImportExpression') continue;
    // TypeScript enum members must be constant: the stripped text keeps `enum` before them.
    if (p.typescript && /\benum\b[^}]*$/.test(text.slice(Math.max(0, node.start - 400), node.start))) continue;
    out.push(node);
  }
  return out;
}

/** (a) Every eligible string literal re-encoded. */
export function encodeStringsJs(ctx: FileContext, how: StringEncoding): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const edits: Edit[] = [];
  for (const lit of stringSites(p, ctx.text)) {
    const expr = encodeJs(lit.value, how, ctx.rng);
    if (expr !== null) edits.push({ from: lit.start, to: lit.end, text: expr });
  }
  return edits.length === 0 ? null : applyEdits(ctx.text, edits);
}

/** Where an ESM `import` line may go: after a hashbang line. */
function importPoint(text: string): number {
  return text.startsWith('#!') ? text.indexOf('\n') + 1 : 0;
}

function relSpecifier(fromPath: string, toPath: string, typescript: boolean): string {
  const base = toPath.slice(toPath.lastIndexOf('/') + 1);
  void fromPath;
  return `./${typescript ? base.replace(/\.(m|c)?ts$/, (_m, k: string | undefined) => `.${k ?? ''}js`) : base}`;
}

function sideExt(ctx: FileContext, p: Parsed): string {
  const m = /\.(m|c)?(j|t)sx?$/.exec(ctx.path);
  const kind = m?.[1] ?? '';
  const lang = m?.[2] === 't' ? 'ts' : 'js';
  if (kind === '' && !p.isModule && ctx.esmPackage) return `.c${lang}`;
  if (kind === '' && p.isModule && !ctx.esmPackage && lang === 'js') return '.mjs';
  return `.${kind}${lang}`;
}

/** (b) Every eligible string literal moved to a sibling constants module and imported from it. */
export function liftStringsJs(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const sites = stringSites(p, ctx.text);
  if (sites.length === 0) return null;
  const constsPath = freeSibling(ctx.files, dirOf(ctx.path), 'consts', sideExt(ctx, p));
  const spec = relSpecifier(ctx.path, constsPath, p.typescript);
  const used = new Set<string>();
  const names: string[] = [];
  const lines: string[] = [];
  const edits: Edit[] = [];
  for (const lit of sites) {
    const name = freshName(ctx, used, 'S').toUpperCase();
    names.push(name);
    lines.push(p.isModule ? `export const ${name} = ${jsLiteral(lit.value)};` : `exports.${name} = ${jsLiteral(lit.value)};`);
    edits.push({ from: lit.start, to: lit.end, text: p.isModule ? name : `require(${jsLiteral(spec.replace(/\.c?js$/, (e) => (e === '.cjs' ? e : '')))}).${name}` });
  }
  if (p.isModule) edits.push({ from: importPoint(ctx.text), to: importPoint(ctx.text), text: `import { ${names.join(', ')} } from ${jsLiteral(spec)};\n` });
  ctx.files.set(constsPath, `${lines.join('\n')}\n`);
  return applyEdits(ctx.text, edits);
}

/** A module binding: `const x = require('m')`, `const { a: x } = require('m')`, `import x from 'm'`, ... */
interface ModuleBinding {
  local: string;
  module: string;
  /** The imported member, or null for the module (namespace, default, require result). */
  member: string | null;
  kind: 'require' | 'default' | 'namespace' | 'named';
}

function moduleBindings(p: Parsed): ModuleBinding[] {
  const out: ModuleBinding[] = [];
  for (const { node } of p.nodes) {
    if (node.type === 'VariableDeclarator' && isRequireCall(node.init)) {
      const module = node.init.arguments[0].value as string;
      if (node.id.type === 'Identifier') out.push({ local: node.id.name, module, member: null, kind: 'require' });
      else if (node.id.type === 'ObjectPattern')
        for (const prop of node.id.properties)
          if (prop.type === 'Property' && !prop.computed && prop.key.type === 'Identifier' && prop.value.type === 'Identifier') out.push({ local: prop.value.name, module, member: prop.key.name, kind: 'require' });
    }
    if (node.type === 'ImportDeclaration')
      for (const s of node.specifiers) {
        const module = node.source.value as string;
        if (s.type === 'ImportDefaultSpecifier') out.push({ local: s.local.name, module, member: null, kind: 'default' });
        else if (s.type === 'ImportNamespaceSpecifier') out.push({ local: s.local.name, module, member: null, kind: 'namespace' });
        else if (s.imported.type === 'Identifier') out.push({ local: s.local.name, module, member: s.imported.name, kind: 'named' });
      }
  }
  return out;
}

/** Edits renaming every reference and declaration of the mapped names (properties and labels keep theirs). */
function renameEdits(p: Parsed, map: Map<string, string>): Edit[] {
  const edits: Edit[] = [];
  const done = new Set<number>();
  // Shorthand properties (`{ exec }`, `{ exec = x }`): the walk visits the value, a node apart from
  // the key; renaming it must keep the key (`{ exec: run }`).
  const shorthand = new Set<number>();
  for (const { node } of p.nodes) {
    if (node.type === 'Property' && node.shorthand) shorthand.add(node.key.start);
    // acorn-walk visits a pattern's property values without the properties themselves.
    if (node.type === 'ObjectPattern') for (const prop of node.properties) if (prop.type === 'Property' && prop.shorthand) shorthand.add(prop.key.start);
  }
  for (const { node, parent } of p.nodes) {
    if (node.type !== 'Identifier' || !map.has(node.name) || done.has(node.start)) continue;
    const to = map.get(node.name)!;
    if (shorthand.has(node.start) && parent?.type !== 'ImportSpecifier' && parent?.type !== 'ExportSpecifier') {
      done.add(node.start);
      edits.push({ from: node.start, to: node.end, text: `${node.name}: ${to}` });
      continue;
    }
    if (parent !== null) {
      if (parent.type === 'MemberExpression' && parent.property === node && !parent.computed) continue;
      if ((parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') && parent.key === node && !parent.computed) continue;
      if (/^(Labeled|Break|Continue)Statement$/.test(parent.type) || parent.type === 'MetaProperty') continue;
      if (parent.type === 'Property' && parent.key === node && !parent.computed) {
        if (!parent.shorthand) continue;
        done.add(node.start);
        edits.push({ from: node.start, to: node.end, text: `${node.name}: ${to}` });
        continue;
      }
      if (parent.type === 'ImportSpecifier' || parent.type === 'ExportSpecifier') {
        const shorthand = parent.local.start === (parent.imported ?? parent.exported).start;
        done.add(node.start);
        if (parent.type === 'ImportSpecifier') {
          if (parent.local !== node && !shorthand) continue;
          edits.push(shorthand ? { from: parent.start, to: parent.end, text: `${node.name} as ${to}` } : { from: node.start, to: node.end, text: to });
        } else {
          if (parent.exported !== node && !shorthand) edits.push({ from: node.start, to: node.end, text: to });
          else if (shorthand) edits.push({ from: parent.start, to: parent.end, text: `${to} as ${node.name}` });
        }
        continue;
      }
    }
    done.add(node.start);
    edits.push({ from: node.start, to: node.end, text: to });
  }
  return edits;
}

/** (c1) Module bindings renamed to aliases (`import { exec as run }`, `const { exec: run } = require(...)`, `const sp = require(...)`). */
export function aliasModulesJs(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const used = new Set<string>();
  const map = new Map<string, string>();
  for (const b of moduleBindings(p)) if (!map.has(b.local)) map.set(b.local, freshName(ctx, used));
  if (map.size === 0) return null;
  return applyEdits(ctx.text, renameEdits(p, map));
}

const GLOBAL_SINKS = new Set(['eval', 'Function', 'fetch']);

function declaredNames(p: Parsed): Set<string> {
  const out = new Set<string>();
  for (const { node, parent } of p.nodes) {
    if (node.type !== 'Identifier' || parent === null) continue;
    if ((parent.type === 'VariableDeclarator' && parent.id === node) || (/Function/.test(parent.type) && (parent.id === node || parent.params?.includes(node))) || (parent.type === 'ClassDeclaration' && parent.id === node) || (parent.type === 'CatchClause' && parent.param === node)) out.add(node.name);
  }
  return out;
}

/** (c2) Names built at run time: `require('child' + '_process')`, `globalThis['ev' + 'al'](...)`, `cp['ex' + 'ec'](...)`. */
export function dynamicNamesJs(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const declared = declaredNames(p);
  const modules = new Set(moduleBindings(p).filter((b) => b.member === null).map((b) => b.local));
  const edits: Edit[] = [];
  for (const { node } of p.nodes) {
    if (isRequireCall(node) && node.arguments[0].value.length >= 2) {
      const arg = node.arguments[0];
      edits.push({ from: arg.start, to: arg.end, text: splitConcat(arg.value, ctx.rng, 'js') });
    }
    if (node.type !== 'CallExpression' && node.type !== 'NewExpression') continue;
    const callee = node.callee;
    if (callee.type === 'Identifier' && GLOBAL_SINKS.has(callee.name) && !declared.has(callee.name)) edits.push({ from: callee.start, to: callee.end, text: `globalThis[${splitConcat(callee.name, ctx.rng, 'js')}]` });
    if (callee.type === 'MemberExpression' && !callee.computed && !callee.optional && callee.object.type === 'Identifier' && modules.has(callee.object.name) && callee.property.type === 'Identifier' && callee.property.name.length >= 2)
      edits.push({ from: callee.object.end, to: callee.property.end, text: `[${splitConcat(callee.property.name, ctx.rng, 'js')}]` });
  }
  return edits.length === 0 ? null : applyEdits(ctx.text, edits);
}

/** (d) Each call of an imported function or module member (or eval/Function/fetch) made through a helper in a sibling module. */
export function wrapSinksJs(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const declared = declaredNames(p);
  const bindings = new Map(moduleBindings(p).map((b) => [b.local, b]));
  const helperPath = freeSibling(ctx.files, dirOf(ctx.path), 'helpers', sideExt(ctx, p));
  const spec = relSpecifier(ctx.path, helperPath, p.typescript);
  const used = new Set<string>();
  const head: string[] = [];
  const fns: string[] = [];
  const names: string[] = [];
  const edits: Edit[] = [];
  const moduleLocal = new Map<string, string>();
  const bindHelper = (b: ModuleBinding): string => {
    const key = `${b.kind}:${b.module}:${b.member ?? ''}`;
    const known = moduleLocal.get(key);
    if (known !== undefined) return known;
    const local = freshName(ctx, used, 'mod');
    const m = jsLiteral(b.module);
    if (!p.isModule) head.push(b.member === null ? `const ${local} = require(${m});` : `const { ${b.member}: ${local} } = require(${m});`);
    else if (b.kind === 'default') head.push(`import ${local} from ${m};`);
    else if (b.kind === 'namespace') head.push(`import * as ${local} from ${m};`);
    else if (b.kind === 'named') head.push(`import { ${b.member} as ${local} } from ${m};`);
    else head.push(b.member === null ? `import ${local} from ${m};` : `import { ${b.member} as ${local} } from ${m};`);
    moduleLocal.set(key, local);
    return local;
  };
  for (const { node } of p.nodes) {
    if (node.type !== 'CallExpression' || node.optional) continue;
    const callee = node.callee;
    let target: string | null = null;
    let hint = 'call';
    if (callee.type === 'Identifier' && GLOBAL_SINKS.has(callee.name) && !declared.has(callee.name)) {
      target = callee.name;
      hint = callee.name;
    } else if (callee.type === 'Identifier' && bindings.has(callee.name)) {
      target = bindHelper(bindings.get(callee.name)!);
      hint = bindings.get(callee.name)!.member ?? 'call';
    } else if (callee.type === 'MemberExpression' && !callee.computed && !callee.optional && callee.object.type === 'Identifier' && bindings.get(callee.object.name)?.member === null && callee.property.type === 'Identifier') {
      target = `${bindHelper(bindings.get(callee.object.name)!)}.${callee.property.name}`;
      hint = callee.property.name;
    }
    if (target === null) continue;
    const name = freshName(ctx, used, hint.replace(/\W/g, '') || 'call');
    const spread = node.arguments.some((a: N) => a.type === 'SpreadElement');
    const params = spread ? ['...args'] : node.arguments.map((_: N, i: number) => `a${i}`);
    fns.push(`${p.isModule ? 'export ' : ''}function ${name}(${params.join(', ')}) {\n  return ${target}(${params.join(', ')});\n}${p.isModule ? '' : `\nexports.${name} = ${name};`}`);
    names.push(name);
    edits.push({ from: callee.start, to: callee.end, text: p.isModule ? name : `require(${jsLiteral(spec.replace(/\.js$/, ''))}).${name}` });
  }
  if (names.length === 0) return null;
  if (p.isModule) edits.push({ from: importPoint(ctx.text), to: importPoint(ctx.text), text: `import { ${names.join(', ')} } from ${jsLiteral(spec)};\n` });
  ctx.files.set(helperPath, `${head.join('\n')}\n\n${fns.join('\n\n')}\n`);
  return applyEdits(ctx.text, edits);
}

/** (e) Declared local names (variables, functions, parameters, classes) renamed, unless another file or an export names them. */
export function renameIdentifiersJs(ctx: FileContext): FileRewrite {
  const p = parse(ctx);
  if (p === null) return null;
  const exported = new Set<string>();
  for (const { node } of p.nodes) {
    if (node.type === 'ExportNamedDeclaration' && node.declaration !== null) {
      const d = node.declaration;
      if (d.id?.name !== undefined) exported.add(d.id.name);
      for (const v of d.declarations ?? []) if (v.id.type === 'Identifier') exported.add(v.id.name);
    }
  }
  const imports = new Set(moduleBindings(p).map((b) => b.local));
  const others = [...ctx.files].filter(([path]) => path !== ctx.path).map(([, t]) => t).join('\n');
  const used = new Set<string>();
  const map = new Map<string, string>();
  for (const name of declaredNames(p)) {
    if (exported.has(name) || imports.has(name) || name === 'require' || name === 'module' || name === 'exports' || name === 'arguments') continue;
    if (new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(others)) continue;
    map.set(name, freshName(ctx, used, 'v'));
  }
  if (map.size === 0) return null;
  return applyEdits(ctx.text, renameEdits(p, map));
}
/* eslint-enable @typescript-eslint/no-explicit-any */

import { node, nodes, type N } from './estree.js';
import type { Resolve } from './resolve.js';

/** `{ argPath }` when a path was found, nothing otherwise (the fact leaves the field out). */
export function withPath(path: string | undefined): { argPath?: string } {
  return path === undefined ? {} : { argPath: path };
}

/**
 * A path built from the file's own location, as `$DIR/…` or `$FILE`: `__dirname`, `__filename`,
 * `path.join`/`path.resolve` of those and constants, template literals and `+`, through variables
 * (`boundTo` gives the value a name was bound to).
 */
export function dirPath(r: Resolve, boundTo: (name: string) => N | undefined, expr: N | undefined, depth = 0): string | undefined {
  if (expr === undefined || depth > 6) return undefined;
  if (expr.type === 'Identifier') {
    if (expr.name === '__dirname') return '$DIR';
    if (expr.name === '__filename') return '$FILE';
    return dirPath(r, boundTo, boundTo(expr.name as string), depth + 1);
  }
  if (expr.type === 'MemberExpression' && r.qualify(expr) === 'import.meta.dirname') return '$DIR';
  // A relative path climbing up (`'../axios/index.js'`) resolves against the working directory:
  // at install time npm runs scripts in the package's own directory.
  if (expr.type === 'Literal' && typeof expr.value === 'string' && /^\.\.([\\/]|$)/.test(expr.value)) return `$CWD/${expr.value.replace(/\\/g, '/')}`;
  if (expr.type === 'CallExpression') {
    const q = r.qualify(node(expr.callee));
    if (q === 'process.cwd') return '$CWD';
    if (q === 'path.dirname') {
      const inner = dirPath(r, boundTo, nodes(expr.arguments)[0], depth + 1);
      return inner === undefined ? undefined : inner === '$FILE' ? '$DIR' : `${inner}/..`;
    }
    if (q === undefined || !/^path\.(join|resolve|posix\.join|normalize)$/.test(q)) return undefined;
    const parts = nodes(expr.arguments);
    const head = r.fold(parts[0]);
    // An unknown base (`process.env.INIT_CWD`, a parameter) keeps the constant parts after it: `?/node_modules/x/…`.
    const base = q === 'path.resolve' && head !== undefined && !head.startsWith('/') && !/^[A-Za-z]:/.test(head) ? `$CWD/${head}` : (dirPath(r, boundTo, parts[0], depth + 1) ?? (head === undefined ? '?' : undefined));
    if (base === undefined) return undefined;
    const rest: string[] = [];
    for (const p of parts.slice(1)) {
      const v = r.fold(p);
      if (v === undefined) rest.push('?');
      else if (v.startsWith('/')) return undefined;
      else rest.push(v);
    }
    return [base, ...rest].join('/');
  }
  if (expr.type === 'TemplateLiteral' || (expr.type === 'BinaryExpression' && expr.operator === '+')) {
    // A template is a path from its first part only when it starts there (`rm -rf ${__dirname}` is a command, not a path).
    if (expr.type === 'TemplateLiteral' && (nodes(expr.quasis)[0]?.value as { cooked?: string } | undefined)?.cooked !== '') return undefined;
    const first = expr.type === 'TemplateLiteral' ? nodes(expr.expressions)[0] : node(expr.left);
    const base = dirPath(r, boundTo, first, depth + 1);
    if (base === undefined) return undefined;
    const tail = expr.type === 'TemplateLiteral' ? nodes(expr.quasis).slice(1).map((q) => String((q.value as { cooked?: string }).cooked ?? '')).join('?') : (r.fold(node(expr.right)) ?? '?');
    return `${base}${tail}`;
  }
  return undefined;
}

/** Computed parts of a command searched at most (arguments, argument vectors, template parts, `+` operands). */
const MAX_COMMAND_PARTS = 64;

/**
 * The computed parts of a process call's arguments, in source order, each as the path it is when built from
 * the file's location or the working directory (`$DIR/..`, `$CWD`) or `?` when it is not one: an argument,
 * an element of an argument vector, a part of a template literal, an operand of `+`. Parts that fold to a
 * constant are text of the command, not computed parts. Undefined when no part is such a path.
 * `exec(`rm -rf ${__dirname}`)` gives `['$DIR']`; `spawn('rm', ['-rf', ROOT])` with ROOT = `path.join(__dirname, '..')` gives `['$DIR/..']`.
 */
export function commandPaths(r: Resolve, boundTo: (name: string) => N | undefined, args: N[]): string[] | undefined {
  const out: string[] = [];
  const visit = (n: N | undefined, depth: number) => {
    if (n === undefined || depth > 6 || out.length >= MAX_COMMAND_PARTS || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression' || n.type === 'ObjectExpression') return;
    if (r.fold(n) !== undefined) return;
    const path = dirPath(r, boundTo, n);
    if (path !== undefined && /^\$(?:DIR|CWD|FILE)(?:\/|$)/.test(path)) {
      out.push(path);
      return;
    }
    if (n.type === 'TemplateLiteral') for (const e of nodes(n.expressions)) visit(e, depth + 1);
    else if (n.type === 'BinaryExpression' && n.operator === '+') {
      visit(node(n.left), depth + 1);
      visit(node(n.right), depth + 1);
    } else if (n.type === 'ArrayExpression') for (const e of nodes(n.elements)) visit(e, depth + 1);
    else if (n.type === 'ParenthesizedExpression') visit(node(n.expression), depth + 1);
    else out.push('?');
  };
  for (const a of args) visit(a, 0);
  return out.some((p) => p !== '?') ? out : undefined;
}

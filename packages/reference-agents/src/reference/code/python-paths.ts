import type { SyntaxNode } from '@lezer/common';
import { namedChildren, pythonStringValue } from './parse-python.js';

/** What the path reader needs from the Python fact reader: source text, resolved names, constant folding, bindings. */
export interface PythonPathContext {
  src(n: SyntaxNode): string;
  qualify(n: SyntaxNode | undefined): string | undefined;
  fold(n: SyntaxNode | undefined): string | undefined;
  /** The value a name is bound to when the file binds it exactly once (an assignment, no parameter or loop of that name). */
  boundOnce(name: string): SyntaxNode | undefined;
}

/** Calls that return the working directory. */
const CWD_CALL = /^(?:os\.getcwd|os\.getcwdb|pathlib\.Path\.cwd|Path\.cwd)$/;
/** Calls that return their one argument as a path, unchanged for our purpose (absolute, normalized, a string of it). */
const SAME_PATH_CALL = /^(?:os\.path\.(?:abspath|realpath|normpath)|os\.fspath|str|pathlib\.(?:Path|PurePath|PosixPath|WindowsPath)|Path)$/;
/** Calls that join their arguments into a path. */
const JOIN_CALL = /^(?:os\.path\.join|pathlib\.(?:Path|PurePath|PosixPath|WindowsPath)|Path)$/;
/** Computed parts of a command searched at most. */
const MAX_COMMAND_PARTS = 64;

/** The parent of a path: the folder of the file itself is `$DIR`. */
function parentOf(path: string): string {
  return path === '$FILE' ? '$DIR' : `${path}/..`;
}

/**
 * Paths built from the file's location or the working directory, written the way the JavaScript reader's
 * `argPath` is (`$FILE`, `$DIR/..`, `$CWD/jobs`, `?` for a part found at run time): `__file__`,
 * `os.path.dirname`/`abspath`/`realpath`/`normpath`/`join`, `pathlib.Path(…)` with `.parent`, `.resolve()`,
 * `.absolute()`, `/` and `joinpath`, `os.getcwd()`, `Path.cwd()`, through names the file binds once.
 */
export function pythonPaths(ctx: PythonPathContext): { pathOf: (n: SyntaxNode | undefined) => string | undefined; commandPaths: (args: SyntaxNode[]) => string[] | undefined } {
  const { src, qualify, fold } = ctx;

  const joined = (base: string | undefined, rest: SyntaxNode[]): string | undefined => {
    if (base === undefined) return undefined;
    const parts = [base];
    for (const p of rest) {
      if (p.name === 'AssignOp' || p.name === 'KeywordArgument') return undefined;
      const v = fold(p);
      // An absolute part starts the path over.
      if (v !== undefined && /^(?:[\\/]|[A-Za-z]:)/.test(v)) return undefined;
      parts.push(v ?? '?');
    }
    return parts.join('/');
  };

  const pathOf = (n: SyntaxNode | undefined, depth = 0): string | undefined => {
    if (n === undefined || depth > 12) return undefined;
    switch (n.name) {
      case 'ParenthesizedExpression':
        return pathOf(namedChildren(n)[0], depth + 1);
      case 'VariableName': {
        const name = src(n);
        if (name === '__file__') return '$FILE';
        return pathOf(ctx.boundOnce(name), depth + 1);
      }
      case 'String': {
        // A relative path climbing up resolves against the working directory.
        const v = pythonStringValue(src(n));
        return /^\.\.(?:[\\/]|$)/.test(v) ? `$CWD/${v.replace(/\\/g, '/')}` : undefined;
      }
      case 'MemberExpression': {
        const parts = namedChildren(n);
        const last = parts[parts.length - 1];
        if (parts.length !== 2 || last?.name !== 'PropertyName' || src(last) !== 'parent') return undefined;
        const inner = pathOf(parts[0], depth + 1);
        return inner === undefined ? undefined : parentOf(inner);
      }
      case 'BinaryExpression': {
        const kids = namedChildren(n);
        const op = kids.find((k) => k.name === 'ArithOp');
        const [l, r] = kids.filter((k) => k.name !== 'ArithOp');
        const o = op === undefined ? '' : src(op);
        if (o !== '/' && o !== '+') return undefined;
        const base = pathOf(l, depth + 1);
        if (base === undefined || r === undefined) return undefined;
        if (o === '/') return joined(base, [r]);
        const tail = fold(r);
        return `${base}${tail ?? '?'}`;
      }
      case 'CallExpression': {
        const [callee, argList] = namedChildren(n);
        const args = argList === undefined ? [] : namedChildren(argList);
        const q = qualify(callee) ?? '';
        if (CWD_CALL.test(q)) return '$CWD';
        if (q === 'os.path.dirname' && args.length === 1) {
          const inner = pathOf(args[0], depth + 1);
          return inner === undefined ? undefined : parentOf(inner);
        }
        if (SAME_PATH_CALL.test(q) && args.length === 1) return pathOf(args[0], depth + 1);
        if (JOIN_CALL.test(q) && args.length > 1) return joined(pathOf(args[0], depth + 1), args.slice(1));
        if (callee?.name === 'MemberExpression') {
          const parts = namedChildren(callee);
          const method = parts[parts.length - 1];
          const m = method === undefined ? '' : src(method);
          // `Path(__file__).resolve()`, `.absolute()`: the same path; `.joinpath('a', x)`: joined.
          if ((m === 'resolve' || m === 'absolute') && args.length === 0) return pathOf(parts[0], depth + 1);
          if (m === 'joinpath' && args.length > 0) return joined(pathOf(parts[0], depth + 1), args);
        }
        return undefined;
      }
      default:
        return undefined;
    }
  };

  /**
   * The computed parts of a process call's positional arguments, in order, each as its path or `?` (see
   * `CallFact.commandPaths`): elements of an argument vector, replacements of an f-string that do not fold,
   * operands of `+`, the values `%` and `.format` fill in. Undefined when no part is a path.
   */
  const commandPaths = (args: SyntaxNode[]): string[] | undefined => {
    const out: string[] = [];
    const part = (n: SyntaxNode) => {
      const path = pathOf(n);
      out.push(path !== undefined && /^\$(?:DIR|CWD|FILE)(?:\/|$)/.test(path) ? path : '?');
    };
    const visit = (n: SyntaxNode | undefined, depth: number) => {
      if (n === undefined || depth > 6 || out.length >= MAX_COMMAND_PARTS) return;
      if (n.name === 'FormatString') {
        for (const rep of namedChildren(n)) {
          if (rep.name !== 'FormatReplacement') continue;
          const kids = namedChildren(rep);
          if (kids.length === 1 && fold(kids[0]) !== undefined) continue;
          if (kids[0] !== undefined) part(kids[0]);
        }
        return;
      }
      if (fold(n) !== undefined) return;
      const path = pathOf(n);
      if (path !== undefined && /^\$(?:DIR|CWD|FILE)(?:\/|$)/.test(path)) {
        out.push(path);
        return;
      }
      switch (n.name) {
        case 'ArrayExpression':
        case 'TupleExpression':
        case 'ParenthesizedExpression':
          for (const k of namedChildren(n)) visit(k, depth + 1);
          return;
        case 'BinaryExpression': {
          const op = namedChildren(n).find((k) => k.name === 'ArithOp');
          if (op !== undefined && (src(op) === '+' || src(op) === '%')) {
            for (const k of namedChildren(n)) if (k.name !== 'ArithOp') visit(k, depth + 1);
            return;
          }
          break;
        }
        case 'CallExpression': {
          // `"rm -rf {}".format(root)`: the template, then the values it is filled with.
          const [callee, argList] = namedChildren(n);
          if (callee?.name === 'MemberExpression' && src(namedChildren(callee).at(-1) ?? callee) === 'format' && argList !== undefined) {
            visit(namedChildren(callee)[0], depth + 1);
            for (const k of namedChildren(argList)) visit(k, depth + 1);
            return;
          }
          break;
        }
        default:
          break;
      }
      part(n);
    };
    for (const a of args) visit(a, 0);
    return out.some((p) => p !== '?') ? out : undefined;
  };

  return { pathOf: (n) => pathOf(n), commandPaths };
}

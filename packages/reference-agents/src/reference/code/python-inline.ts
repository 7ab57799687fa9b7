import type { SyntaxNode } from '@lezer/common';
import { namedChildren } from './parse-python.js';
import { paramNamesOf } from './python-scopes.js';

/** Statements of a helper read at most (a decoding helper is a line or a few). */
const MAX_STEPS = 8;

/**
 * A small helper of the file read as what a call of it gives back (round s31): a lambda, or a `def`
 * whose body is only local assignments of single names (`y = x[::-1]`), a docstring, imports and one
 * final `return <expression>`. `def _d(x): return base64.b64decode(x)` called as `exec(_d(P))` is then
 * `exec(base64.b64decode(P))` to the readers that fold constants. Anything else in the body (a branch,
 * a loop, a call made for its effect, `*args`) leaves the helper unread (undefined). A method is not read,
 * except (round s31) a `@staticmethod`, called through its class (`K.d(P)`: `staticMethodClass`).
 */
export interface PythonInlineBody {
  /** Positional parameter names, in order (defaults are not read: each must be passed). */
  params: string[];
  /** Local names bound before the return, in order. */
  steps: { name: string; value: SyntaxNode }[];
  /** The returned expression. */
  result: SyntaxNode;
}

export function pythonInlineBody(fn: SyntaxNode, src: (n: SyntaxNode) => string): PythonInlineBody | undefined {
  const list = fn.getChild('ParamList');
  if (list === null || /[*]/.test(src(list))) return undefined;
  const params = paramNamesOf(list, src);
  if (fn.name === 'LambdaExpression') {
    const body = namedChildren(fn).at(-1);
    return body === undefined || body === list ? undefined : { params, steps: [], result: body };
  }
  if (fn.name !== 'FunctionDefinition') return undefined;
  // A method's first parameter is its receiver: not read. (round s31) A `@staticmethod` has none: read as a function.
  if (methodClass(fn, src) !== undefined && staticMethodClass(fn, src) === undefined) return undefined;
  const body = fn.getChild('Body');
  if (body === null) return undefined;
  const statements = namedChildren(body);
  if (statements.length === 0 || statements.length > MAX_STEPS + 2) return undefined;
  const steps: { name: string; value: SyntaxNode }[] = [];
  for (let i = 0; i < statements.length; i++) {
    const s = statements[i]!;
    const last = i === statements.length - 1;
    if (last) {
      const value = s.name === 'ReturnStatement' ? namedChildren(s)[0] : undefined;
      return value === undefined ? undefined : { params, steps, result: value };
    }
    if (s.name === 'ImportStatement') continue;
    if (s.name === 'ExpressionStatement' && i === 0 && namedChildren(s)[0]?.name === 'String') continue;
    if (s.name !== 'AssignStatement') return undefined;
    const kids = namedChildren(s);
    if (kids.length !== 3 || kids[0]!.name !== 'VariableName' || kids[1]!.name !== 'AssignOp' || src(kids[1]!) !== '=') return undefined;
    steps.push({ name: src(kids[0]!), value: kids[2]! });
  }
  return undefined;
}

/** The name of the class whose body a `def` is written in (directly, or under decorators), else undefined. */
function methodClass(fn: SyntaxNode, src: (n: SyntaxNode) => string): string | undefined {
  const holder = fn.parent?.name === 'DecoratedStatement' ? fn.parent.parent : fn.parent;
  const cls = holder?.name === 'Body' ? holder.parent : null;
  const name = cls?.name === 'ClassDefinition' ? cls.getChild('VariableName') : null;
  return name === null || name === undefined ? undefined : src(name);
}

/** (round s31) The class of a `def` decorated `@staticmethod` in a class body (`K` for `K.d`), else undefined. */
export function staticMethodClass(fn: SyntaxNode, src: (n: SyntaxNode) => string): string | undefined {
  if (fn.name !== 'FunctionDefinition' || fn.parent?.name !== 'DecoratedStatement') return undefined;
  if (!fn.parent.getChildren('Decorator').some((d) => /^@\s*staticmethod\s*$/.test(src(d)))) return undefined;
  return methodClass(fn, src);
}

import { describe, expect, it } from 'vitest';
import { pythonSourceOf } from '../mcp-servers/python-source-cache.js';
import { parseJs, scopeOf, walkJs, type JsNode } from './js-source.js';

// The constant folds of the JavaScript and Python readers stay bounded on values that depend on
// themselves and on values shared by many parts. Checked by the answer and by work done, never by
// time: each case counts the nodes its fold visits through a wrapped reader.
const jsValueOf = (source: string, name: string): string | null => {
  const root = parseJs(source, false);
  const scope = scopeOf(root);
  let value: string | null | undefined;
  walkJs(root, (n: JsNode) => {
    if (n.type === 'VariableDeclarator' && (n.id as JsNode).name === name) value = scope.fold(n.init as JsNode);
  });
  if (value === undefined) throw new Error(`no ${name}`);
  return value;
};
const pyValueOf = (source: string, name: string): string | null => {
  const py = pythonSourceOf(source);
  for (let c = py.tree.topNode.firstChild; c; c = c.nextSibling) if (py.slice(c.firstChild!) === name) return py.fold(c.lastChild);
  throw new Error(`no ${name}`);
};
const countingFolds = <T extends { fold: (n: never) => string | null }>(target: T): { calls: () => number } => {
  let calls = 0;
  const proto = Object.getPrototypeOf(target) as { fold: (this: T, n: never) => string | null };
  const original = proto.fold;
  Object.defineProperty(target, 'fold', { value: function (this: T, n: never) { calls++; return original.call(this, n); } });
  return { calls: () => calls };
};

describe('constant folds are bounded', () => {
  it('JavaScript: arrays joined into each other fold to nothing after a handful of visits', () => {
    const src = "const a = [b.join(''), 'x'];\nconst b = [a.join(''), a[0]];\nconst c = b.join('');\n";
    const root = parseJs(src, false);
    const scope = scopeOf(root);
    const counter = countingFolds(scope);
    walkJs(root, (n: JsNode) => {
      if (n.type === 'VariableDeclarator' && (n.id as JsNode).name === 'c') expect(scope.fold(n.init as JsNode)).toBeNull();
    });
    // It took about 2^48 visits (seconds) before a node met again while being folded was cut.
    expect(counter.calls()).toBeLessThan(100);
    expect(jsValueOf("const a = a + 'x';\nconst s = a;\n", 's')).toBeNull();
  });

  it('JavaScript: a name used twice at each of 25 levels stops at the size bound, and small shared values still fold', () => {
    let src = "const a0 = ['x', 'y'];\n";
    for (let i = 1; i <= 25; i++) src += `const a${i} = [a${i - 1}.join(''), a${i - 1}.join('')];\n`;
    expect(jsValueOf(`${src}const z = a25.join('');\n`, 'z')).toBeNull();
    expect(jsValueOf(`${src}const z = a3.join('');\n`, 'z')).toBe('xy'.repeat(8));
  });

  it('Python: lists indexed into each other fold to nothing instead of overflowing the stack', () => {
    const src = 'A = [B[0] + "x", "y"]\nB = [A[0] + A[1], A[0]]\nC = "".join(B)\n';
    expect(pyValueOf(src, 'C')).toBeNull();
    expect(pyValueOf(src, 'A')).toBeNull();
    expect(pyValueOf('A = A + "x"\nS = A\n', 'S')).toBeNull();
  });

  it('Python: shared values stop at the size bound, and a long + chain still folds', () => {
    let src = 'A0 = ("x", "y")\n';
    for (let i = 1; i <= 25; i++) src += `A${i} = ("".join(A${i - 1}), "".join(A${i - 1}))\n`;
    expect(pyValueOf(`${src}Z = "".join(A25)\n`, 'Z')).toBeNull();
    expect(pyValueOf(`${src}Z = "".join(A3)\n`, 'Z')).toBe('xy'.repeat(8));
    const parts = Array.from({ length: 300 }, (_, i) => `"p${i}"`);
    expect(pyValueOf(`X = ${parts.join(' + ')}\n`, 'X')).toBe(Array.from({ length: 300 }, (_, i) => `p${i}`).join(''));
  });
});

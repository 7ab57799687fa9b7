import { childNodes, node, nodes, type N } from './estree.js';
import { isFunctionLike } from './syntax-shapes.js';

/** `while (!![]) { … parseInt(…) … a.push(a.shift()) … }`: javascript-obfuscator's string-array rotation. */
export function rotatesStringArray(loop: N): boolean {
  const test = node(loop.test);
  const bangBangArray = test?.type === 'UnaryExpression' && test.operator === '!' && node(test.argument)?.type === 'UnaryExpression' && node(node(test.argument)!.argument)?.type === 'ArrayExpression';
  if (!bangBangArray && !(test?.type === 'Literal' && test.value === true) && !(test === undefined && loop.type === 'ForStatement')) return false;
  let rotates = false;
  let checksum = false;
  const member = (m: N | undefined) => (m?.type !== 'MemberExpression' ? undefined : m.computed === true ? (node(m.property)?.value as string | undefined) : (node(m.property)?.name as string | undefined));
  const visit = (n: N, depth: number) => {
    if ((rotates && checksum) || depth > 30) return;
    if (n.type === 'CallExpression') {
      const callee = node(n.callee);
      if (callee?.type === 'Identifier' && callee.name === 'parseInt') checksum = true;
      const arg = nodes(n.arguments)[0];
      if (member(callee) === 'push' && arg?.type === 'CallExpression' && member(node(arg.callee)) === 'shift') {
        const a = node(callee!.object);
        const b = node(node(arg.callee)!.object);
        if (a?.type === 'Identifier' && b?.type === 'Identifier' && a.name === b.name) rotates = true;
      }
    }
    for (const child of childNodes(n)) visit(child, depth + 1);
  };
  const body = node(loop.body);
  if (body !== undefined) visit(body, 0);
  return rotates && checksum;
}

/** A module-level loop whose condition is always true and whose body has no exit. */
export function loopNeverEnds(loop: N): boolean {
  const test = node(loop.test);
  const alwaysTrue =
    test === undefined ||
    (test.type === 'Literal' && (test.value === true || test.value === 1)) ||
    (test.type === 'BinaryExpression' && (test.operator === '<' || test.operator === '<=') && node(test.right)?.type === 'Identifier' && node(test.right)?.name === 'Infinity');
  if (!alwaysTrue) return false;
  let exits = false;
  const visit = (n: N, depth: number) => {
    if (exits || depth > 50) return;
    if (n.type === 'BreakStatement' || n.type === 'ReturnStatement' || n.type === 'ThrowStatement' || n.type === 'AwaitExpression' || n.type === 'YieldExpression') {
      exits = true;
      return;
    }
    if (isFunctionLike(n)) return;
    for (const child of childNodes(n)) visit(child, depth + 1);
  };
  const body = node(loop.body);
  if (body !== undefined) visit(body, 0);
  return !exits;
}

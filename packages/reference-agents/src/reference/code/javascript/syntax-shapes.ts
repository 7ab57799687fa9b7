import { childNodes, node, nodes, type N } from './estree.js';

/** Functions and class bodies: the nodes that open a scope of their own (class bodies for methods). */
export function isFunctionLike(n: N): boolean {
  return n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression' || n.type === 'ClassBody';
}

/** The identifiers a binding pattern declares (`a`, `{ a, b: c }`, `[d, ...e]`, `f = 1`). */
export function patternNames(p: N | undefined): string[] {
  if (p === undefined) return [];
  switch (p.type) {
    case 'Identifier':
      return [p.name as string];
    case 'ObjectPattern':
      return nodes(p.properties).flatMap((prop) => patternNames(prop.type === 'RestElement' ? node(prop.argument) : node(prop.value)));
    case 'ArrayPattern':
      return nodes(p.elements).flatMap((e) => patternNames(e));
    case 'RestElement':
      return patternNames(node(p.argument));
    case 'AssignmentPattern':
      return patternNames(node(p.left));
    default:
      return [];
  }
}

/** Every identifier name inside some expressions (function bodies included). */
export function identifiersIn(roots: N[]): Set<string> {
  const out = new Set<string>();
  const visit = (n: N, depth: number) => {
    if (depth > 40 || out.size > 500) return;
    if (n.type === 'Identifier') out.add(n.name as string);
    for (const child of childNodes(n)) visit(child, depth + 1);
  };
  for (const r of roots) visit(r, 0);
  return out;
}

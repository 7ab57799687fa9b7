import { JsScope, walkJs, type JsNode } from './js-source.js';

/** Methods whose second argument, after a name, is what the model reads (`server.tool(name, description, …)`). */
const DESCRIBED_BY_SECOND_ARGUMENT = new Set(['tool', 'prompt']);

function isFunctionOrObject(node: JsNode): boolean {
  return node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression' || node.type === 'ObjectExpression';
}

/**
 * The `[start, end)` source ranges of description text in a script: the value of a `description`
 * property, the description argument of `server.tool(name, description, …)`/`.prompt(…)`, and the
 * initial value of a variable used as either. Text there is read by a model or a person; a
 * credential path in it names the file without the code opening it.
 */
export function jsDescriptionRanges(root: JsNode, scope: JsScope): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const names = new Set<string>();
  const declarations: Array<[string, JsNode]> = [];
  const describe = (value: JsNode) => {
    if (value.type === 'Identifier') names.add(value.name as string);
    else ranges.push([value.start, value.end]);
  };
  walkJs(root, (node) => {
    if (node.type === 'Property' && node.kind === 'init' && scope.propertyName(node.key as JsNode, Boolean(node.computed)) === 'description') {
      describe(node.value as JsNode);
    } else if (node.type === 'CallExpression' && (node.callee as JsNode).type === 'MemberExpression') {
      const callee = node.callee as JsNode;
      const method = scope.propertyName(callee.property as JsNode, Boolean(callee.computed));
      const [name, description] = node.arguments as JsNode[];
      if (method !== null && DESCRIBED_BY_SECOND_ARGUMENT.has(method) && name !== undefined && description !== undefined && scope.fold(name) !== null && !isFunctionOrObject(description)) describe(description);
    } else if (node.type === 'VariableDeclarator' && (node.id as JsNode).type === 'Identifier' && node.init) {
      declarations.push([(node.id as JsNode).name as string, node.init as JsNode]);
    }
  });
  for (const [name, init] of declarations) if (names.has(name)) ranges.push([init.start, init.end]);
  return ranges;
}

import type { PythonSource, SyntaxNode } from './python-source.js';

const STRING = new Set(['String', 'FormatString', 'ContinuedString']);

function isDocstring(statement: SyntaxNode): boolean {
  const block = statement.parent;
  if (block?.name !== 'Body' && block?.name !== 'Script') return false;
  for (let c = block.firstChild; c; c = c.nextSibling) {
    if (c.name === ':' || c.name === 'Comment') continue;
    return c.from === statement.from;
  }
  return false;
}

/**
 * The `[from, to)` source ranges of description text in a Python file: docstrings (the first
 * statement of a module, class or function, when it is a string), `description=` arguments (of
 * `@mcp.tool(…)`, `Tool(…)`, `argparse`), `"description": …` dictionary entries, and the value
 * assigned to a name used as one of these. A credential path there names the file; it does not
 * open it.
 */
export function pythonDescriptionRanges(src: PythonSource): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const names = new Set<string>();
  const assignments: Array<[string, SyntaxNode]> = [];
  const describe = (value: SyntaxNode) => {
    if (value.name === 'VariableName') names.add(src.slice(value));
    else ranges.push([value.from, value.to]);
  };
  const cursor = src.tree.cursor();
  do {
    const node = cursor.node;
    if (node.name === 'ExpressionStatement' && node.firstChild && STRING.has(node.firstChild.name) && isDocstring(node)) {
      ranges.push([node.from, node.to]);
    } else if (node.name === 'CallExpression' || node.name === 'Decorator') {
      for (const arg of src.args(node)) if (arg.keyword === 'description') describe(arg.value);
    } else if (node.name === 'DictionaryExpression') {
      // `"description": value`: a key string, a colon, the value.
      for (let c = node.firstChild; c; c = c.nextSibling) {
        const colon = c.nextSibling;
        const value = colon?.nextSibling;
        if (STRING.has(c.name) && /^[rRuU]?(['"])description\1$/.test(src.slice(c)) && colon?.name === ':' && value) describe(value);
      }
    } else if (node.name === 'AssignStatement') {
      const target = node.firstChild;
      const value = node.lastChild;
      if (target?.name === 'VariableName' && value && target !== value) assignments.push([src.slice(target), value]);
    }
  } while (cursor.next());
  for (const [name, value] of assignments) if (names.has(name)) ranges.push([value.from, value.to]);
  return ranges;
}

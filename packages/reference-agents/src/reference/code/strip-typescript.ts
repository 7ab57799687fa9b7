import { Parser } from 'acorn';
import { tsPlugin } from '@sveltejs/acorn-typescript';

interface TsNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

let tsParser: typeof Parser | null = null;
let tsxParser: typeof Parser | null = null;

function parserFor(jsx: boolean): typeof Parser {
  if (jsx) return (tsxParser ??= Parser.extend(tsPlugin({ jsx: true }) as never));
  return (tsParser ??= Parser.extend(tsPlugin() as never));
}

function isNode(value: unknown): value is TsNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && typeof (value as { start?: unknown }).start === 'number';
}

// Members of a class that are types only: `declare x: T`, index signatures, abstract methods, overloads.
const TYPE_ONLY_DECLARATIONS = new Set(['TSInterfaceDeclaration', 'TSTypeAliasDeclaration', 'TSDeclareFunction', 'TSIndexSignature']);
const MODIFIER_WORDS = /\b(?:private|public|protected|readonly|declare|abstract|override)\b/g;

/**
 * TypeScript source with its type syntax blanked out — annotations, type parameters and
 * arguments, `as`/`satisfies` casts, non-null `!`, interfaces, type aliases, type-only imports,
 * overloads, `declare` members, access modifiers — every offset and line kept (spaces of the same
 * length, newlines kept), the way Node's own type stripping does it. What is left is JavaScript
 * a plain parser reads, so every call after a type annotation is still seen (acorn-loose alone
 * loses them). `import x = require('m')` becomes `const x = require('m')` and `export =`
 * `exports=`, both of the same length. Null when the source does not parse as TypeScript.
 * Enums and namespaces with code stay as they are (the caller's loose parse reads them).
 */
export function stripTypeScript(text: string, jsx = false): string | null {
  let root: TsNode;
  try {
    root = parserFor(jsx).parse(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true, allowHashBang: true, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, allowImportExportEverywhere: true }) as unknown as TsNode;
  } catch {
    return null;
  }
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let i = Math.max(0, from); i < Math.min(to, out.length); i++) if (out[i] !== '\n' && out[i] !== '\r') out[i] = ' ';
  };
  const write = (at: number, replacement: string) => {
    for (let i = 0; i < replacement.length; i++) out[at + i] = replacement[i] as string;
  };
  const blankChar = (at: number, ch: string) => {
    if (text[at] === ch) out[at] = ' ';
  };
  // After an identifier or key, the `?` of an optional or the `!` of a definite declaration.
  const blankMarkAfter = (n: TsNode | undefined, chars: string) => {
    if (!n) return;
    let at = n.type === 'Identifier' ? n.start + String(n.name).length : n.end;
    while (at < text.length && /\s/.test(text[at] as string)) at++;
    if (chars.includes(text[at] as string)) out[at] = ' ';
  };

  // `enum E { A, B = 2 }` → `var  E={ A, B : 2 }`: an object of the same length, its members kept as properties.
  const enumAsObject = (n: TsNode) => {
    const id = n.id as TsNode;
    const open = text.indexOf('{', id.end);
    if (open < 0 || id.start - n.start < 4 || open === id.end || !/^\s+$/.test(text.slice(id.end, open))) return;
    blank(n.start, id.start);
    write(n.start, 'var');
    out[open - 1] = '=';
    for (const m of (n.members as TsNode[] | undefined) ?? []) {
      const init = m.initializer as TsNode | undefined;
      if (!init) continue;
      const eq = text.indexOf('=', (m.id as TsNode).end);
      if (eq >= 0 && eq < init.start) out[eq] = ':';
    }
  };

  const stack: TsNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop() as TsNode;
    let descend = true;
    switch (n.type) {
      case 'TSTypeAnnotation':
      case 'TSTypeParameterDeclaration':
      case 'TSTypeParameterInstantiation':
        blank(n.start, n.end);
        descend = false;
        break;
      case 'ImportDeclaration':
        if (n.importKind === 'type') {
          blank(n.start, n.end);
          descend = false;
        }
        break;
      case 'ImportSpecifier':
      case 'ExportSpecifier':
        if (n.importKind === 'type' || n.exportKind === 'type') {
          const inner = (n.imported ?? n.local) as TsNode | undefined;
          if (inner) blank(n.start, inner.start);
        }
        break;
      case 'ExportNamedDeclaration': {
        const declaration = n.declaration as TsNode | null | undefined;
        if (n.exportKind === 'type' || (declaration && (TYPE_ONLY_DECLARATIONS.has(declaration.type) || declaration.declare === true))) {
          blank(n.start, n.end);
          descend = false;
        }
        break;
      }
      case 'VariableDeclaration':
        if (n.declare === true || text.startsWith('declare', n.start)) {
          blank(n.start, n.end);
          descend = false;
        }
        break;
      case 'ExportAllDeclaration':
        if (n.exportKind === 'type') {
          blank(n.start, n.end);
          descend = false;
        }
        break;
      case 'TSAsExpression':
      case 'TSSatisfiesExpression': {
        // `(a ?? b) as T`: the parentheses belong to the expression, not to the cast.
        let at = (n.expression as TsNode).end;
        while (at < n.end && /[\s)]/.test(text[at] as string)) at++;
        blank(at, n.end);
        break;
      }
      case 'TSNonNullExpression':
        blankChar(n.end - 1, '!');
        break;
      case 'TSTypeAssertion':
        blank(n.start, (n.expression as TsNode).start);
        break;
      case 'TSParameterProperty': {
        // `private readonly x = 1`: the parameter's own range may start at the modifiers.
        const modifiers = /^(?:\s*\b(?:private|public|protected|readonly|override)\b)+/.exec(text.slice(n.start, n.end));
        if (modifiers) blank(n.start, n.start + modifiers[0].length);
        break;
      }
      case 'TSImportEqualsDeclaration':
        if ((n.moduleReference as TsNode | undefined)?.type === 'TSExternalModuleReference' && text.startsWith('import', n.start)) write(n.start, 'const ');
        else {
          blank(n.start, n.end);
          descend = false;
        }
        break;
      case 'TSExportAssignment':
        if (/^export\s*=/.test(text.slice(n.start, n.start + 12))) {
          const eq = text.indexOf('=', n.start);
          blank(n.start, eq);
          write(n.start, 'exports');
        }
        break;
      case 'TSEnumDeclaration':
      case 'TSModuleDeclaration':
        if (n.declare === true || text.startsWith('declare', n.start)) {
          blank(n.start, n.end);
          descend = false;
        } else if (n.type === 'TSEnumDeclaration') enumAsObject(n);
        break;
      case 'ClassDeclaration':
      case 'ClassExpression': {
        if (n.declare === true || text.startsWith('declare', n.start)) {
          blank(n.start, n.end);
          descend = false;
          break;
        }
        if (text.startsWith('abstract', n.start)) blank(n.start, n.start + 'abstract'.length);
        const impl = n.implements as TsNode[] | undefined;
        if (impl && impl.length > 0) {
          const from = text.lastIndexOf('implements', (impl[0] as TsNode).start);
          if (from >= n.start) blank(from, (impl[impl.length - 1] as TsNode).end);
        }
        break;
      }
      case 'PropertyDefinition':
      case 'MethodDefinition': {
        const value = n.value as TsNode | null | undefined;
        if (n.declare === true || n.abstract === true || value?.type === 'TSDeclareMethod' || (n.type === 'MethodDefinition' && value?.body == null)) {
          blank(n.start, n.end);
          descend = false;
          break;
        }
        const key = n.key as TsNode;
        const prefix = text.slice(n.start, key.start).replace(MODIFIER_WORDS, (w) => ' '.repeat(w.length));
        write(n.start, prefix);
        if (!n.computed) blankMarkAfter(key, n.optional === true || n.definite === true ? '?!' : '');
        break;
      }
      case 'Identifier':
        // `function f(this: Window, x)`: the `this` parameter is a type and its comma goes with it.
        if (n.name === 'this' && text.startsWith('this', n.start) && /[(,]\s*$/.test(text.slice(Math.max(0, n.start - 200), n.start)) && /^\s*[:,)]/.test(text.slice(n.end, n.end + 20))) {
          const comma = /^\s*,/.exec(text.slice(n.end, n.end + 200));
          blank(n.start, n.end + (comma ? comma[0].length : 0));
          descend = false;
          break;
        }
        if (n.optional === true || n.definite === true) blankMarkAfter(n, '?!');
        break;
      case 'VariableDeclarator':
        if (n.definite === true) blankMarkAfter(n.id as TsNode, '!');
        break;
      default:
        if (TYPE_ONLY_DECLARATIONS.has(n.type)) {
          blank(n.start, n.end);
          descend = false;
        }
    }
    if (!descend) continue;
    for (const key in n) {
      if (key === 'loc' || key === 'range') continue;
      const value = n[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) stack.push(item);
      } else if (isNode(value)) stack.push(value);
    }
  }
  return out.join('');
}

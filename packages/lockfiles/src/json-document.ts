import { findNodeAtLocation, parseTree, printParseErrorCode, type JSONPath, type Node, type ParseError } from 'jsonc-parser';
import { lockfileMalformed } from './lockfile-errors.js';
import { SourceLines } from './source-lines.js';

/**
 * A parsed JSON (or, for bun.lock, JSONC) lockfile that can say on which line a value sits. The
 * value comes from the fast native parser; the positional tree is built only when a line is asked
 * for (a skipped entry, an error), so a clean file is parsed once.
 */
export class JsonDocument {
  private tree: Node | undefined;
  private readonly lines: SourceLines;

  private constructor(
    readonly path: string,
    private readonly text: string,
    readonly value: unknown,
    private readonly jsonc: boolean,
  ) {
    this.lines = new SourceLines(text);
  }

  /** Strict JSON, or JSONC (comments and trailing commas) for bun.lock. A syntax error is a 422 naming its line. */
  static parse(path: string, text: string, options: { jsonc: boolean }): JsonDocument {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    if (!options.jsonc) {
      try {
        return new JsonDocument(path, body, JSON.parse(body) as unknown, false);
      } catch {
        // Fall through: the positional parser finds where the syntax breaks.
      }
    }
    const errors: ParseError[] = [];
    const tree = parseTree(body, errors, { allowTrailingComma: options.jsonc, disallowComments: !options.jsonc, allowEmptyContent: false });
    const first = errors[0];
    if (first || !tree) {
      const lines = new SourceLines(body);
      const offset = first?.offset ?? 0;
      throw lockfileMalformed(path, lines.lineOf(offset), `invalid ${options.jsonc ? 'JSONC' : 'JSON'}: ${describeParseError(first)}`);
    }
    const document = new JsonDocument(path, body, nodeValue(tree), options.jsonc);
    document.tree = tree;
    return document;
  }

  /** The line of the value at `path` (object keys and array indexes), or of the nearest ancestor that exists. */
  lineAt(path: JSONPath): number {
    const tree = this.positionalTree();
    for (let depth = path.length; depth >= 0; depth--) {
      const node = findNodeAtLocation(tree, path.slice(0, depth));
      if (node) return this.lines.lineOf(node.parent?.type === 'property' ? node.parent.offset : node.offset);
    }
    return 1;
  }

  malformed(path: JSONPath, message: string): Error {
    return lockfileMalformed(this.path, this.lineAt(path), message);
  }

  private positionalTree(): Node {
    if (!this.tree) this.tree = parseTree(this.text, [], { allowTrailingComma: this.jsonc, disallowComments: !this.jsonc }) ?? { type: 'null', offset: 0, length: 0 };
    return this.tree;
  }
}

function describeParseError(error: ParseError | undefined): string {
  if (!error) return 'the file is empty';
  const names: Record<string, string> = {
    InvalidSymbol: 'unexpected character',
    InvalidNumberFormat: 'invalid number',
    PropertyNameExpected: 'property name expected',
    ValueExpected: 'value expected',
    ColonExpected: 'colon expected',
    CommaExpected: 'comma expected',
    CloseBraceExpected: 'closing brace expected',
    CloseBracketExpected: 'closing bracket expected',
    EndOfFileExpected: 'end of file expected',
    InvalidCommentToken: 'comments are not allowed',
    UnexpectedEndOfComment: 'unterminated comment',
    UnexpectedEndOfString: 'unterminated string',
    UnexpectedEndOfNumber: 'unterminated number',
    InvalidUnicode: 'invalid unicode escape',
    InvalidEscapeCharacter: 'invalid escape character',
    InvalidCharacter: 'invalid character in string',
  };
  return names[printParseErrorCode(error.error)] ?? 'syntax error';
}

/**
 * The value of a positional tree, with `__proto__` kept as an ordinary key: the tree's own
 * `getNodeValue` assigns it, which would set the prototype of the object instead.
 */
function nodeValue(root: Node): unknown {
  const build = (node: Node): unknown => {
    switch (node.type) {
      case 'object': {
        const object: Record<string, unknown> = {};
        for (const property of node.children ?? []) {
          const [key, value] = property.children ?? [];
          if (key && value) Object.defineProperty(object, String(key.value), { value: build(value), enumerable: true, writable: true, configurable: true });
        }
        return object;
      }
      case 'array':
        return (node.children ?? []).map(build);
      default:
        return node.value as unknown;
    }
  };
  return build(root);
}

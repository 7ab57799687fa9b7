import { isMap, isScalar, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { lockfileMalformed } from './lockfile-errors.js';

/**
 * A parsed YAML lockfile (pnpm-lock.yaml, a Yarn Berry yarn.lock) that can say on which line an
 * entry sits. Entry lines of a top-level section are indexed once, on first use, so that looking up
 * thousands of entries stays linear.
 */
export class YamlDocument {
  /** Key lines per top-level section; `''` is the top level itself. */
  private readonly sections = new Map<string, Map<string, number>>();

  private constructor(
    readonly path: string,
    private readonly document: Document.Parsed,
    private readonly lineCounter: LineCounter,
    readonly value: unknown,
  ) {}

  static parse(path: string, text: string): YamlDocument {
    const lineCounter = new LineCounter();
    // The parser's own duplicate-key check compares each key with every other key of its map,
    // quadratic in a lockfile's thousands of entries; the check below is one pass.
    const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
    const error = document.errors[0];
    if (error) {
      const line = lineCounter.linePos(error.pos[0]).line;
      throw lockfileMalformed(path, line, `invalid YAML: ${firstSentence(error.message)}`);
    }
    visit(document, {
      Map(_, map) {
        const seen = new Set<string>();
        for (const item of map.items) {
          if (!isScalar(item.key)) continue;
          const key = String(item.key.value);
          if (seen.has(key)) {
            const line = item.key.range ? lineCounter.linePos(item.key.range[0]).line : 1;
            throw lockfileMalformed(path, line, `invalid YAML: duplicate key ${JSON.stringify(key)}`);
          }
          seen.add(key);
        }
      },
    });
    let value: unknown;
    try {
      // An alias expanding past this many nodes is a billion-laughs file, not a lockfile.
      value = document.toJS({ maxAliasCount: 100 });
    } catch (cause) {
      const message = cause instanceof RangeError ? 'nested too deeply' : firstSentence((cause as Error).message);
      throw lockfileMalformed(path, 1, `invalid YAML: ${message}`);
    }
    return new YamlDocument(path, document, lineCounter, value);
  }

  /**
   * The line of the entry at `path`: the line of its key when it is a map entry (the entry starts
   * there), else of its value; the nearest ancestor that exists when the path goes further than the file.
   */
  lineAt(path: readonly (string | number)[]): number {
    for (let depth = path.length; depth > 0; depth--) {
      const parent = depth === 1 ? this.document.contents : this.document.getIn(path.slice(0, depth - 1), true);
      const last = path[depth - 1];
      if (isMap(parent)) {
        const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === String(last));
        const offset = (pair?.key as Node | undefined)?.range?.[0];
        if (offset !== undefined) return this.lineCounter.linePos(offset).line;
      } else {
        const offset = (this.document.getIn(path.slice(0, depth), true) as Node | undefined)?.range?.[0];
        if (offset !== undefined) return this.lineCounter.linePos(offset).line;
      }
    }
    const offset = (this.document.contents as Node | null)?.range?.[0];
    return offset === undefined ? 1 : this.lineCounter.linePos(offset).line;
  }

  /** The line of the key `key` in the top-level map `section` (null: the top level itself). */
  lineOfEntry(section: string | null, key: string): number {
    let index = this.sections.get(section ?? '');
    if (!index) {
      index = new Map();
      const node = section === null ? this.document.contents : this.document.get(section, true);
      if (isMap(node)) {
        for (const item of node.items) {
          if (isScalar(item.key) && item.key.range) index.set(String(item.key.value), this.lineCounter.linePos(item.key.range[0]).line);
        }
      }
      this.sections.set(section ?? '', index);
    }
    return index.get(key) ?? this.lineAt(section === null ? [] : [section]);
  }

  malformed(path: readonly (string | number)[], message: string): Error {
    return lockfileMalformed(this.path, this.lineAt(path), message);
  }
}

function firstSentence(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

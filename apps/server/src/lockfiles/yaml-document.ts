import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
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
    const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
    const error = document.errors[0];
    if (error) {
      const line = lineCounter.linePos(error.pos[0]).line;
      throw lockfileMalformed(path, line, `invalid YAML: ${firstSentence(error.message)}`);
    }
    let value: unknown;
    try {
      // An alias expanding past this many nodes is a billion-laughs file, not a lockfile.
      value = document.toJS({ maxAliasCount: 100 });
    } catch (cause) {
      throw lockfileMalformed(path, 1, `invalid YAML: ${firstSentence((cause as Error).message)}`);
    }
    return new YamlDocument(path, document, lineCounter, value);
  }

  /** The line of the value at `path`, or of the nearest ancestor that exists. */
  lineAt(path: readonly (string | number)[]): number {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? this.document.contents : this.document.getIn(path.slice(0, depth), true);
      const offset = (node as Node | undefined)?.range?.[0];
      if (offset !== undefined) return this.lineCounter.linePos(offset).line;
    }
    return 1;
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

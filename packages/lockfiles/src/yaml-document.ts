import { load, YAMLException } from 'js-yaml';
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { lockfileMalformed } from './lockfile-errors.js';

/**
 * A parsed YAML lockfile (pnpm-lock.yaml, a Yarn Berry yarn.lock) that can say on which line an
 * entry sits. The value comes from js-yaml, an order of magnitude faster than building `yaml`'s
 * node tree (which a 2,000-package verification cannot afford on every request). Lines of a
 * top-level section's entries come from one scan of the text; the node tree is built only for the
 * rare line an error needs.
 */
export class YamlDocument {
  /** Key lines per top-level section; `''` is the top level itself. */
  private readonly sections = new Map<string, Map<string, number>>();
  private tree: { document: Document.Parsed; lineCounter: LineCounter } | undefined;
  private lines: string[] | undefined;

  private constructor(
    readonly path: string,
    private readonly text: string,
    readonly value: unknown,
  ) {}

  static parse(path: string, text: string): YamlDocument {
    let value: unknown;
    try {
      value = load(text, {
        filename: path,
        // pnpm and Yarn never write anchors; refusing them rules out alias bombs whatever walks the value.
        listener(event, state) {
          const anchor = (state as unknown as { anchor?: string | null }).anchor;
          if (event === 'close' && typeof anchor === 'string') throw new AnchorRefused(state.line + 1);
        },
      });
    } catch (cause) {
      if (cause instanceof AnchorRefused) throw lockfileMalformed(path, cause.line, 'invalid YAML: anchors and aliases are not used in lockfiles');
      if (cause instanceof YAMLException) {
        const line = cause.mark ? cause.mark.line + 1 : 1;
        throw lockfileMalformed(path, line, `invalid YAML: ${explain(cause.reason || 'unreadable', text, line)}`);
      }
      const message = cause instanceof RangeError ? 'nested too deeply' : (cause as Error).message;
      throw lockfileMalformed(path, 1, `invalid YAML: ${message}`);
    }
    return new YamlDocument(path, text, value);
  }

  /**
   * The line of the entry at `path`: the line of its key when it is a map entry (the entry starts
   * there), else of its value; the nearest ancestor that exists when the path goes further than the file.
   */
  lineAt(path: readonly (string | number)[]): number {
    const { document, lineCounter } = this.nodeTree();
    for (let depth = path.length; depth > 0; depth--) {
      const parent = depth === 1 ? document.contents : document.getIn(path.slice(0, depth - 1), true);
      const last = path[depth - 1];
      if (isMap(parent)) {
        const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === String(last));
        const offset = (pair?.key as Node | undefined)?.range?.[0];
        if (offset !== undefined) return lineCounter.linePos(offset).line;
      } else {
        const offset = (document.getIn(path.slice(0, depth), true) as Node | undefined)?.range?.[0];
        if (offset !== undefined) return lineCounter.linePos(offset).line;
      }
    }
    const offset = (document.contents as Node | null)?.range?.[0];
    return offset === undefined ? 1 : lineCounter.linePos(offset).line;
  }

  /** The line of the key `key` in the top-level map `section` (null: the top level itself). */
  lineOfEntry(section: string | null, key: string): number {
    let index = this.sections.get(section ?? '');
    if (!index) {
      index = this.scanSection(section);
      this.sections.set(section ?? '', index);
    }
    return index.get(key) ?? this.lineAt(section === null ? [] : [section]);
  }

  malformed(path: readonly (string | number)[], message: string): Error {
    return lockfileMalformed(this.path, this.lineAt(path), message);
  }

  /**
   * Key lines of one block mapping, read off the text: the section's `key:` line at column 0, then
   * every key at its children's indentation until the next top-level line. A key written in a form
   * this scan does not read (flow style, multi-line) is simply absent, and `lineOfEntry` falls back
   * to the node tree.
   */
  private scanSection(section: string | null): Map<string, number> {
    const lines = (this.lines ??= this.text.split('\n'));
    const index = new Map<string, number>();
    let i = 0;
    let indent = section === null ? 0 : -1;
    if (section !== null) {
      while (i < lines.length && !(lines[i]!.startsWith(`${section}:`) || lines[i]!.startsWith(`${JSON.stringify(section)}:`) || lines[i]!.startsWith(`'${section}':`))) i++;
      i++;
    }
    for (; i < lines.length; i++) {
      const line = lines[i]!;
      const content = line.trimStart();
      if (content === '' || content.startsWith('#')) continue;
      const at = line.length - content.length;
      if (section !== null && at === 0) break;
      if (indent === -1) indent = at;
      if (at !== indent) continue;
      const key = blockKey(content);
      if (key !== undefined && !index.has(key)) index.set(key, i + 1);
    }
    return index;
  }

  private nodeTree(): { document: Document.Parsed; lineCounter: LineCounter } {
    if (!this.tree) {
      const lineCounter = new LineCounter();
      this.tree = { document: parseDocument(this.text, { lineCounter, prettyErrors: false, uniqueKeys: false }), lineCounter };
    }
    return this.tree;
  }
}

/** The key of a block mapping line (`key: value`, `'key':`, `"key":`), or undefined when the line is not one. */
function blockKey(content: string): string | undefined {
  if (content.startsWith('"')) {
    const end = content.search(/(?<!\\)":(?:\s|$)/);
    if (end < 0) return undefined;
    try {
      return JSON.parse(content.slice(0, end + 1)) as string;
    } catch {
      return undefined;
    }
  }
  if (content.startsWith("'")) {
    const match = /^'((?:[^']|'')*)':(?:\s|$)/.exec(content);
    return match ? match[1]!.replaceAll("''", "'") : undefined;
  }
  if (content.startsWith('- ') || content === '-') return undefined;
  const match = /^(.+?):(?:\s|$)/.exec(content);
  return match ? match[1] : undefined;
}

/** js-yaml's reason, with the key named when a key is given twice (its message does not say which). */
function explain(reason: string, text: string, line: number): string {
  if (reason !== 'duplicated mapping key') return reason;
  const key = blockKey((text.split('\n')[line - 1] ?? '').trimStart());
  return key === undefined ? 'duplicate key' : `duplicate key ${JSON.stringify(key)}`;
}

class AnchorRefused extends Error {
  constructor(readonly line: number) {
    super('anchor');
  }
}

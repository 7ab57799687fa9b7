import { CORE_SCHEMA, load } from 'js-yaml';
import { isMap, isScalar, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { lockfileMalformed } from './lockfile-errors.js';

// An anchor (`&name`) where a node may start: a file with one may hold aliases, which only the
// positional parser bounds (maxAliasCount). A false match (an `&` inside a quoted string) costs only speed.
const ANCHOR_RE = /(?:^|[\s:,[{-])&[^\s,[\]{}]/m;

/** The text, read by js-yaml (core schema, as `yaml` reads it), or undefined when it refuses it or may alias. */
function fastValue(text: string): { value: unknown } | undefined {
  if (ANCHOR_RE.test(text)) return undefined;
  try {
    return { value: load(text, { schema: CORE_SCHEMA }) };
  } catch {
    // Refused (a syntax error, a duplicate key, an unknown tag, too deep): the positional parser
    // reads it again and words the refusal with its line.
    return undefined;
  }
}

/** Where a document's key text starts after `indent` spaces: its parsed value, or undefined when it is no simple key. */
function keyAt(line: string, indent: number): string | undefined {
  const rest = line.slice(indent);
  if (rest.startsWith("'")) {
    let i = 1;
    let key = '';
    for (;;) {
      const quote = rest.indexOf("'", i);
      if (quote < 0) return undefined;
      key += rest.slice(i, quote);
      if (rest[quote + 1] === "'") {
        key += "'";
        i = quote + 2;
        continue;
      }
      return /^:(?:\s|$)/.test(rest.slice(quote + 1)) ? key : undefined;
    }
  }
  if (rest.startsWith('"')) {
    const match = /^"((?:[^"\\]|\\.)*)":(?:\s|$)/.exec(rest);
    if (!match) return undefined;
    try {
      return JSON.parse(`"${match[1]}"`) as string;
    } catch {
      return undefined;
    }
  }
  const plain = /^([^\s#'"?&*!|>%@`{}[\],-]|-(?=\S))(.*?):(?:\s|$)/.exec(rest);
  return plain ? (plain[1]! + plain[2]!).trimEnd() : undefined;
}

/**
 * The lines of the keys of a top-level block mapping (`section`; null: the top level itself), read
 * off the text without a positional parse: a key's line is the line its text starts on. Keys this
 * cannot read (complex or flow keys) are absent; the caller asks the positional parser for those.
 */
function scanEntryLines(lines: readonly string[], section: string | null): Map<string, number> {
  const index = new Map<string, number>();
  let start = 0;
  let end = lines.length;
  let indent = 0;
  if (section !== null) {
    const header = lines.findIndex((line) => line.length > 0 && line[0] !== ' ' && line[0] !== '#' && keyAt(line, 0) === section);
    if (header < 0) return index;
    start = header + 1;
    end = start;
    while (end < lines.length && (lines[end] === '' || lines[end]![0] === ' ' || lines[end]![0] === '#' || /^\s*$/.test(lines[end]!))) end++;
    const first = lines.slice(start, end).find((line) => !/^\s*(#|$)/.test(line));
    if (first === undefined) return index;
    indent = first.length - first.trimStart().length;
  }
  for (let i = start; i < end; i++) {
    const line = lines[i]!;
    if (line.length <= indent || line[indent] === ' ' || line[indent] === '#') continue;
    if (indent > 0 && line.slice(0, indent).trim() !== '') continue;
    const key = keyAt(line, indent);
    if (key !== undefined && !index.has(key)) index.set(key, i + 1);
  }
  return index;
}

/**
 * A parsed YAML lockfile (pnpm-lock.yaml, a Yarn Berry yarn.lock) that can say on which line an
 * entry sits. Entry lines of a top-level section are indexed once, on first use, so that looking up
 * thousands of entries stays linear.
 */
export class YamlDocument {
  /** Key lines per top-level section; `''` is the top level itself. */
  private readonly sections = new Map<string, Map<string, number>>();
  /** Key lines per section as the positional parser reads them (for keys the scan could not read). */
  private readonly positionalSections = new Map<string, Map<string, number>>();
  /** The text's lines, when the value came from the fast reader (entry lines are scanned off them). */
  private readonly lines: readonly string[] | undefined;

  private constructor(
    readonly path: string,
    private positional: { document: Document.Parsed; lineCounter: LineCounter } | (() => { document: Document.Parsed; lineCounter: LineCounter }),
    readonly value: unknown,
    text?: string,
  ) {
    this.lines = text?.split(/\r?\n/);
  }

  private get document(): Document.Parsed {
    return this.parsed().document;
  }

  private get lineCounter(): LineCounter {
    return this.parsed().lineCounter;
  }

  /** The positional parse, made on first use when the value came from the fast reader (errors, unusual keys). */
  private parsed(): { document: Document.Parsed; lineCounter: LineCounter } {
    if (typeof this.positional === 'function') this.positional = this.positional();
    return this.positional;
  }

  /**
   * Reads a YAML lockfile. Well-formed files without anchors (every lockfile pnpm and Yarn write) are
   * read by js-yaml, several times faster than the positional parser; lines are then found in the
   * text, and the positional parse is made only if something needs it. Anything js-yaml refuses is
   * read by the positional parser, which words the refusal and its line.
   */
  static parse(path: string, text: string): YamlDocument {
    const fast = fastValue(text);
    if (fast !== undefined) {
      return new YamlDocument(
        path,
        () => {
          const lineCounter = new LineCounter();
          return { document: parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false }), lineCounter };
        },
        fast.value,
        text,
      );
    }
    return YamlDocument.parsePositional(path, text);
  }

  private static parsePositional(path: string, text: string): YamlDocument {
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
    return new YamlDocument(path, { document, lineCounter }, value);
  }

  /** The document as the positional parser alone reads it (tests compare the fast reader with it). */
  static parseWithPositions(path: string, text: string): YamlDocument {
    return YamlDocument.parsePositional(path, text);
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
      index = this.lines !== undefined ? scanEntryLines(this.lines, section) : this.positionalEntryLines(section);
      this.sections.set(section ?? '', index);
    }
    const line = index.get(key);
    if (line !== undefined) return line;
    // A key the scan could not read (or a document read positionally): the positional parser's answer.
    return this.lines !== undefined ? (this.positionalEntryLines(section).get(key) ?? this.lineAt(section === null ? [] : [section])) : this.lineAt(section === null ? [] : [section]);
  }

  private positionalEntryLines(section: string | null): Map<string, number> {
    const known = this.positionalSections.get(section ?? '');
    if (known) return known;
    const index = new Map<string, number>();
    this.positionalSections.set(section ?? '', index);
    const node = section === null ? this.document.contents : this.document.get(section, true);
    if (isMap(node)) {
      for (const item of node.items) {
        if (isScalar(item.key) && item.key.range) index.set(String(item.key.value), this.lineCounter.linePos(item.key.range[0]).line);
      }
    }
    return index;
  }


  malformed(path: readonly (string | number)[], message: string): Error {
    return lockfileMalformed(this.path, this.lineAt(path), message);
  }
}

function firstSentence(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

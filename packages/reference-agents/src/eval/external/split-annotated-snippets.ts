/**
 * GuardDog's semgrep rule tests (`tests/analyzer/sourcecode/<rule>.<ext>`) are one file per rule
 * holding many snippets; a `# ruleid: <rule>` (or `// ruleid: <rule>`) comment marks the next
 * statement as a finding, `# ok: <rule>` as a statement the rule must not flag. This turns such a
 * file into one sample per annotation, so detection is counted per test case as semgrep counts it.
 */

export interface AnnotatedSnippet {
  /** `ruleid` (the rule must flag it) or `ok` (it must not). */
  kind: 'ruleid' | 'ok';
  /** The rule named by the annotation (the first, when a comment names several). */
  rule: string;
  /** 1-based line of the annotation comment. */
  line: number;
  /** The annotated statement alone. */
  statement: string;
  /** The sample's code: the file's imports, then the annotated statement in its block (below). */
  code: string;
}

const ANNOTATION = /^\s*(?:#|\/\/)\s*(ruleid|ok|todoruleid|todook)\s*:\s*([A-Za-z0-9_.-]+)/i;
const IMPORT_LINE = /^(?:import\s|from\s+\S+\s+import\s|(?:const|let|var)\s+[^=]+=\s*require\(|require\()/;

interface LineState {
  /** Bracket depth at the start of the line. */
  depth: number;
  /** The line starts inside a string (a Python triple-quoted string or a JS template). */
  inString: boolean;
}

/**
 * Bracket depth and string state at the start of every line. Strings and comments are skipped so
 * a `(` inside `"…"` does not count; multi-line strings (Python `"""`/`'''`, JS template literals)
 * carry over to the next lines. An approximation of a tokenizer, enough for test snippets.
 */
function scanLines(lines: string[], lineComment: string): LineState[] {
  const states: LineState[] = [];
  let depth = 0;
  let open: string | null = null; // the delimiter of a string spanning lines
  for (const text of lines) {
    states.push({ depth, inString: open !== null });
    let i = 0;
    while (i < text.length) {
      if (open !== null) {
        if (text[i] === '\\') {
          i += 2;
          continue;
        }
        if (text.startsWith(open, i)) {
          i += open.length;
          open = null;
          continue;
        }
        i++;
        continue;
      }
      if (text.startsWith(lineComment, i)) break;
      const c = text[i]!;
      if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
        open = text.slice(i, i + 3);
        i += 3;
        continue;
      }
      if (c === '`') {
        open = '`';
        i++;
        continue;
      }
      if (c === '"' || c === "'") {
        // A single-quoted string ends on its line (an unterminated one is dropped at the line end).
        i++;
        while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
        i++;
        continue;
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
      i++;
    }
  }
  states.push({ depth, inString: open !== null });
  return states;
}

const indentOf = (s: string) => s.length - s.trimStart().length;
const isBlank = (s: string) => s.trim() === '';

/**
 * The lines [start, end) of the statement that begins at `start`: until brackets and strings
 * close and a trailing `\` or `,` stops continuing the line; a Python compound statement (a line
 * ending in `:`) takes its more-indented body; a JS chain continues on lines starting with `.`.
 */
function statementEnd(lines: string[], states: LineState[], start: number): number {
  const baseDepth = states[start]!.depth;
  const baseIndent = indentOf(lines[start]!);
  let i = start + 1;
  for (;;) {
    const prev = lines[i - 1]!.trimEnd();
    const open = states[i]!.depth > baseDepth || states[i]!.inString;
    if (i < lines.length && (open || prev.endsWith('\\'))) {
      i++;
      continue;
    }
    if (i < lines.length && /:\s*(?:#.*)?$/.test(prev) && !isBlank(lines[i]!) && indentOf(lines[i]!) > baseIndent) {
      while (i < lines.length && (isBlank(lines[i]!) || indentOf(lines[i]!) > baseIndent || states[i]!.depth > baseDepth)) i++;
      // A following `else:`/`except:`/`finally:` clause belongs to the same statement.
      if (i < lines.length && indentOf(lines[i]!) === baseIndent && /^(?:elif\b|else\s*:|except\b|finally\s*:)/.test(lines[i]!.trim())) {
        i++;
        continue;
      }
      break;
    }
    if (i < lines.length && /^\s*\./.test(lines[i]!) && states[i]!.depth === baseDepth) {
      i++;
      continue;
    }
    break;
  }
  while (i > start + 1 && isBlank(lines[i - 1]!)) i--;
  return i;
}

/**
 * Splits a semgrep-annotated test file into one snippet per annotation.
 *
 * A snippet is the annotated statement inside its *block*: the file is cut into blocks at every
 * line that starts at column 0, outside brackets and strings, after a blank line (so a
 * `def f():` or `function f(){…}` test case, or a paragraph of top-level statements, is a block).
 * Every other annotated statement of the block (and its annotation) is removed, so each snippet
 * holds one test case with the unannotated context it needs (the `var spawn = require(…)` before
 * it). The import and `require` lines of the file's header (before the first block with an
 * annotation) are prepended: the tests share them, and a real package would have them. An import
 * further down is part of its own test case and stays there.
 */
export function splitAnnotatedSnippets(text: string, lineComment: '#' | '//'): AnnotatedSnippet[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const states = scanLines(lines, lineComment);
  const blockStarts: number[] = [0];
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (!isBlank(l) && indentOf(l) === 0 && states[i]!.depth === 0 && !states[i]!.inString && isBlank(lines[i - 1]!)) blockStarts.push(i);
  }
  interface Ann {
    kind: 'ruleid' | 'ok';
    rule: string;
    at: number;
    stmt: [number, number];
  }
  const annotations: Ann[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (states[i]!.inString) continue;
    const m = ANNOTATION.exec(lines[i]!);
    if (m === null) continue;
    const kindWord = m[1]!.toLowerCase();
    // `todoruleid` is a case the rule should flag but does not yet; `todook` one it wrongly flags:
    // the label is what the test says the code is.
    const kind = kindWord === 'ruleid' || kindWord === 'todoruleid' ? 'ruleid' : 'ok';
    let s = i + 1;
    while (s < lines.length && (isBlank(lines[s]!) || ANNOTATION.test(lines[s]!))) s++;
    if (s >= lines.length) continue;
    annotations.push({ kind, rule: m[2]!.replace(/[.,]+$/, ''), at: i, stmt: [s, statementEnd(lines, states, s)] });
  }
  const blockOf = (line: number) => {
    let b = 0;
    for (const start of blockStarts) if (start <= line) b = start;
    return b;
  };
  // The file's header (before the first block with an annotation) holds the imports the test
  // cases share; an import further down belongs to its own test case.
  const headerEnd = annotations.length === 0 ? 0 : blockOf(annotations[0]!.at);
  const imports = lines.slice(0, headerEnd).filter((l, i) => states[i]!.depth === 0 && !states[i]!.inString && IMPORT_LINE.test(l));
  return annotations.map((a) => {
    const start = blockOf(a.at);
    const next = blockStarts.find((s) => s > start) ?? lines.length;
    let end = Math.max(next, a.stmt[1]);
    // An annotated import (`# ruleid: exec-base64` over `import marshal, zlib`, the exec a blank
    // line below) matches together with the code that uses it: take the next block too.
    if (lines.slice(a.stmt[0], a.stmt[1]).every((l) => IMPORT_LINE.test(l.trim()))) end = Math.max(end, blockStarts.find((s) => s > next) ?? lines.length);
    const drop = new Set<number>();
    for (const other of annotations) {
      if (other === a || other.at < start || other.at >= end) continue;
      drop.add(other.at);
      // Keep a line the two statements share (an annotated statement nested in another's body).
      for (let k = other.stmt[0]; k < other.stmt[1]; k++) if (k < a.stmt[0] || k >= a.stmt[1]) drop.add(k);
    }
    const body: string[] = [];
    for (let k = start; k < end; k++) if (!drop.has(k)) body.push(lines[k]!);
    while (body.length > 0 && isBlank(body[body.length - 1]!)) body.pop();
    const missing = imports.filter((imp) => !body.includes(imp));
    const code = `${[...new Set(missing), ...(missing.length > 0 ? [''] : []), ...body].join('\n')}\n`;
    return { kind: a.kind, rule: a.rule, line: a.at + 1, statement: lines.slice(a.stmt[0], a.stmt[1]).join('\n'), code };
  });
}

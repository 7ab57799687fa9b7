import { pythonSourceOf } from './python-source-cache.js';
import { parseJs, walkJs } from '../skills/js-source.js';
import type { JsNode } from '../skills/js-source.js';
import type { PythonSource, SyntaxNode } from '../skills/python-source.js';

import type { ScriptLanguage } from '../skills/script-fact.js';

/**
 * The file with everything but its string literals blanked (newlines kept, so offsets and lines
 * stay those of the file): what a model can be shown from the code — descriptions picked at run
 * time, prompt templates — without comments and identifiers that only people read.
 */
export function codeStrings(text: string, language: ScriptLanguage, specimens: 'all' | 'exclude' | 'only' = 'all', path = ''): string {
  // A module named for what it holds (`patterns.py`, `signatures.ts`, `detectors/rules.js`): its tables are all patterns.
  const detectorFile = DETECTOR_FILE.test(path);
  // [from, to] keeps the text there; a third item is written instead of it (a folded f-string field, as long or shorter).
  const ranges: Array<[number, number, string?]> = [];
  const keep = (specimen: boolean) => specimens === 'all' || (specimens === 'only') === specimen;
  if (language === 'python') {
    const src = pythonSourceOf(text);
    const docstring = moduleDocstring(src.tree.topNode, text);
    const cursor = src.tree.cursor();
    do {
      if (docstring !== null && cursor.from === docstring[0] && cursor.to === docstring[1]) continue;
      if ((cursor.name === 'String' || cursor.name === 'FormatString') && keep(specimens !== 'all' && pythonSpecimen(text, cursor.node, detectorFile))) ranges.push(...literalPieces(cursor.node, src));
    } while (cursor.next());
  } else if (language === 'javascript' || language === 'typescript') {
    const parents = new Map<JsNode, JsNode | null>();
    walkJs(parseJs(text, language === 'typescript'), (node, parent) => {
      parents.set(node, parent);
      if ((node.type === 'Literal' && typeof node.value === 'string') || node.type === 'TemplateElement') {
        if (keep(specimens !== 'all' && jsSpecimen(text, node, parents, detectorFile))) ranges.push([node.start, node.end]);
      }
    });
  } else return specimens === 'only' ? text.replace(/[^\n]/g, ' ') : text;
  ranges.sort((a, b) => a[0] - b[0]);
  const blank = (from: number, to: number) => text.slice(from, to).replace(/[^\n]/g, ' ');
  const parts: string[] = [];
  let at = 0;
  for (const [from, to, written] of ranges) {
    if (from < at) continue;
    parts.push(blank(at, from), written ?? text.slice(from, to));
    at = to;
  }
  parts.push(blank(at, text.length));
  return parts.join('');
}

/**
 * A Python string's text as the model can read it: an f-string's replacement fields (`{config}`, `{a!r:>10}`)
 * are blanked, as a JavaScript template literal's `${…}` is — the program fills them, and a name in braces
 * there is not a blank left for the model to fill (round s30: `f"![chart](https://quickchart.io/chart?c={config})"`
 * read as an image address with a blank). Escaped braces (`{{`, `}}`) are text and stay.
 * A field that names a module constant or holds a literal (`{SLOT}` with `SLOT = "{CONVERSATION}"`,
 * `{'<CONVERSATION>'}`) is folded to its text first, since that text is what the model reads: written in
 * the field's place when it fits there (padded with spaces after it), else the field is kept as written
 * when the text is itself a blank (`<…>`, `{…}`, `[…]`, `$…`, `%s`, an upper-case name) — it reads as the
 * blank it holds, as before round s30 — and blanked otherwise (round s30 fix: the blanking let
 * `f"…?d={SLOT}"` with `SLOT = "{CONVERSATION}"` through).
 */
function literalPieces(node: SyntaxNode, src: PythonSource): Array<[number, number, string?]> {
  if (node.name !== 'FormatString') return [[node.from, node.to]];
  const out: Array<[number, number, string?]> = [];
  let at = node.from;
  for (let c = node.firstChild; c !== null; c = c.nextSibling) {
    if (c.name !== 'FormatReplacement') continue;
    if (c.from > at) out.push([at, c.from]);
    const folded = constantField(c, src);
    if (folded !== null) {
      const span = c.to - c.from;
      if (folded.length <= span && !folded.includes('\n')) out.push([c.from, c.to, folded + ' '.repeat(span - folded.length)]);
      else if (BLANK_TEXT.test(folded)) out.push([c.from, c.to]);
    }
    at = c.to;
  }
  if (node.to > at) out.push([at, node.to]);
  return out;
}

// A text that is itself a blank for the model to fill.
const BLANK_TEXT = /<[A-Za-z][\w -]{0,40}>|\{\{?\s*[A-Za-z_][\w.]{0,40}\s*\}|\[[A-Z][A-Z_ ]{0,40}\]|\$\{?[A-Za-z_]|%s|^[A-Z][A-Z0-9_]{2,40}$/;

/** The text of an f-string field whose expression is a literal or a name bound to a constant (no conversion or spec besides `!s`), or null. */
function constantField(field: SyntaxNode, src: PythonSource): string | null {
  const expr = field.firstChild?.nextSibling ?? null;
  if (expr === null || !['String', 'ContinuedString', 'VariableName'].includes(expr.name)) return null;
  for (let c = expr.nextSibling; c !== null; c = c.nextSibling) {
    if (c.name === 'FormatSpec' || (c.name === 'FormatConversion' && src.slice(c) !== '!s')) return null;
  }
  return src.fold(expr);
}

/**
 * The module's docstring (a string alone as the first statement) when nothing in the module reads
 * `__doc__`: it documents the module to people and reaches no model (a tool's description is its
 * function's docstring; `FastMCP(instructions=__doc__)` would serve it, and then it is kept). A
 * scanner explaining in its module docstring which phrases it flags quotes them to its readers
 * (in-sample: a prompt-injection scanner was BLOCKed for its module docstring, held-out set 20).
 */
function moduleDocstring(top: SyntaxNode, text: string): [number, number] | null {
  if (/\b__doc__\b/.test(text)) return null;
  let first = top.firstChild;
  while (first !== null && first.name === 'Comment') first = first.nextSibling;
  if (first === null || first.name !== 'ExpressionStatement') return null;
  const only = first.firstChild;
  if (only === null || only.name !== 'String' || only.nextSibling !== null) return null;
  return [only.from, only.to];
}

// What a detector's tables are called: the strings in them are what it looks for, not what it says.
const DETECTOR_NAME = /pattern|signature|indicator|heuristic|keyword|marker|phrase|regex|red_?flag|suspicious|malicious|dangerous|injection|poison|attack|threat|blocklist|denylist|blacklist|(?:^|_)(?:rules?|re)(?:_|$)/i;
const DETECTOR_FILE = /(?:^|\/)(?:[\w-]*[_-])?(?:patterns?|signatures?|detectors?|detections?|heuristics?|indicators?|rules?)\.(?:py|[cm]?[jt]s)$|(?:^|\/)(?:detectors?|signatures|patterns)\//i;
// Calls whose string argument is a pattern to match (`re.compile`, `new RegExp`).
const PY_REGEX_CALL = /^(?:re|regex)\.(?:compile|search|match|fullmatch|findall|finditer|sub|subn|split)$/;

/**
 * A string that is a detection pattern: an item (at any depth) of a list, tuple, set or dict
 * assigned to a name that says it holds patterns (`INJECTION_PATTERNS = [...]`,
 * `SIGNATURES = {...}`), or a pattern handed to `re.compile`/`re.search`. A security scanner
 * must spell what it detects; its tables are matched against text, not shown to the model as the
 * server's words.
 */
function pythonSpecimen(text: string, node: SyntaxNode, detectorFile: boolean): boolean {
  let inCollection = false;
  for (let p: SyntaxNode | null = node.parent; p; p = p.parent) {
    if (['ArrayExpression', 'TupleExpression', 'SetExpression', 'DictionaryExpression', 'ParenthesizedExpression', 'ArgList', 'CallExpression'].includes(p.name)) {
      if (p.name !== 'ParenthesizedExpression' && p.name !== 'ArgList' && p.name !== 'CallExpression') inCollection = true;
      if (p.name === 'CallExpression' && PY_REGEX_CALL.test(text.slice(p.firstChild?.from ?? 0, p.firstChild?.to ?? 0).replace(/\s/g, ''))) return true;
      continue;
    }
    if (p.name === 'AssignStatement') {
      const target = p.firstChild;
      const name = target ? text.slice(target.from, target.to) : '';
      return inCollection && detectorFile || ((inCollection || /pattern|regex|signature/i.test(name)) && DETECTOR_NAME.test(name));
    }
    return false;
  }
  return false;
}

function jsSpecimen(text: string, node: JsNode, parents: ReadonlyMap<JsNode, JsNode | null>, detectorFile: boolean): boolean {
  let inCollection = false;
  for (let p = parents.get(node) ?? null, child: JsNode = node; p; child = p, p = parents.get(p) ?? null) {
    if (p.type === 'ArrayExpression' || p.type === 'ObjectExpression' || p.type === 'Property' || p.type === 'TemplateLiteral') {
      if (p.type !== 'TemplateLiteral') inCollection = true;
      continue;
    }
    if (p.type === 'NewExpression' || p.type === 'CallExpression') {
      const callee = p.callee as JsNode;
      return callee.type === 'Identifier' && callee.name === 'RegExp' && (p.arguments as JsNode[])[0] === child;
    }
    if (p.type === 'VariableDeclarator' || p.type === 'PropertyDefinition' || p.type === 'AssignmentExpression') {
      const id = (p.type === 'AssignmentExpression' ? p.left : p.type === 'VariableDeclarator' ? p.id : p.key) as JsNode;
      const name = text.slice(id.start as number, id.end as number);
      return inCollection && detectorFile || ((inCollection || /pattern|regex|signature/i.test(name)) && DETECTOR_NAME.test(name));
    }
    if (p.type === 'TSAsExpression' || p.type === 'TSSatisfiesExpression') continue;
    return false;
  }
  return false;
}

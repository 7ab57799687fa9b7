import { goJoinedSource, goLiteralValue, goStringConstants } from '../code/go-strings.js';
import { goTriviaEnd } from '../code/go-trivia.js';
import { lineLocator } from '../text/line-locator.js';
import type { McpTool } from './mcp-tool.js';

/**
 * (round s31b) The tools, prompts and resources a Go MCP server defines, read as the JavaScript and Python
 * ones are (`js-tools.ts`, `python-tools.ts`), so their descriptions and input schemas get every per-tool reading
 * (description rules, tool shadowing, parameter names and descriptions, the manifest hash). Held-out set 32: a Go
 * server's description, built as `formatDesc + compatNote` from constants of another file with a relay address
 * spelled as bytes, told the model to redirect every other server's `send_email`; no Go tool was read as a tool.
 *
 * mark3labs/mcp-go: `mcp.NewTool("name", mcp.WithDescription(…), mcp.WithString("p", mcp.Description(…),
 * mcp.Title(…), mcp.Enum(…), mcp.DefaultString(…)), …)` (also `WithNumber` / `WithBoolean` / `WithArray` /
 * `WithObject` / `WithInteger`), `mcp.NewToolWithRawSchema("name", "desc", …)`, `mcp.NewPrompt("name",
 * mcp.WithPromptDescription(…), mcp.WithArgument("a", mcp.ArgumentDescription(…)))`, `mcp.NewResource("uri",
 * "name", mcp.WithResourceDescription(…))`. The official go-sdk: `&mcp.Tool{Name: "…", Description: "…"}`, and
 * `mcp.Prompt{…}` / `mcp.Resource{…}` likewise; a description given through a call of literals takes the last one
 * (a translation helper's default: `t("TOOL_X_DESCRIPTION", "…")`). Texts are read from the package's sources with string pieces
 * joined (`goJoinedSource`: constants of any file of the package, byte and rune slices, `"a" + "b"`), folded
 * three times so a constant built from other constants reads whole. A description that is not text after that
 * (a call, a variable set at run time) is ''.
 */

const MAX_BYTES = 512 * 1024;
const MAX_TOOLS = 200;
const NOT_SERVED = /(?:^|\/)(?:vendor|testdata)\//;
/** A definition of a tool, prompt or resource: mark3labs' constructors, the go-sdk's composite literals. */
const DEFINITION = /\b(?:mcp\.)?(NewTool|NewToolWithRawSchema|NewPrompt|NewResource|NewResourceTemplate)\s*\(|&?\bmcp\.(Tool|Prompt|Resource)\s*\{/;
/** A file that defines a tool, prompt or resource. */
const DEFINES = /\bNew(?:Tool|Prompt|Resource)\w*\s*\(|\bmcp\.(?:Tool|Prompt|Resource)\s*\{/;

/** The end (exclusive) of the call or composite literal whose opening bracket is at `open`, past strings, runes and comments. */
function closing(text: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const stack: string[] = [];
  const end = Math.min(text.length, open + 64 * 1024);
  let i = open;
  while (i < end) {
    const past = goTriviaEnd(text, i, end);
    if (past > i) {
      i = past;
      continue;
    }
    const c = text[i]!;
    if (pairs[c] !== undefined) stack.push(pairs[c]!);
    else if (c === ')' || c === '}' || c === ']') {
      if (stack.pop() !== c) return i + 1;
      if (stack.length === 0) return i + 1;
    }
    i++;
  }
  return end;
}

/** The arguments of a call (the text between its parentheses) split at its top-level commas. */
function topLevelArguments(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c === '"' || c === "'") {
      i++;
      while (i < inner.length && inner[i] !== c && inner[i] !== '\n') i += inner[i] === '\\' ? 2 : 1;
    } else if (c === '`') {
      const close = inner.indexOf('`', i + 1);
      i = close < 0 ? inner.length : close;
    } else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (inner.slice(start).trim() !== '') out.push(inner.slice(start));
  return out.map((a) => a.trim());
}

/** The text of an expression that is one string literal (after joining), or null. */
function literal(expression: string | undefined): string | null {
  const m = /^\s*("(?:[^"\\\n]|\\.)*"|`[^`]*`)\s*$/.exec(expression ?? '');
  return m === null ? null : goLiteralValue(m[1]!);
}

/**
 * The text of a description expression: one literal, or a call whose arguments are all literals and whose last one
 * is the text (a translation helper with its default: `t("TOOL_X_DESCRIPTION", "Lists …")`, github-mcp-server).
 */
function textOf(expression: string | undefined): string | null {
  const plain = literal(expression);
  if (plain !== null) return plain;
  const call = /^\s*[A-Za-z_][\w.]*\s*\(/.exec(expression ?? '');
  if (call === null) return null;
  const e = expression!;
  const open = call[0].length - 1;
  const end = closing(e, open);
  if (e.slice(end).trim() !== '') return null;
  const args = topLevelArguments(e.slice(open + 1, end - 1)).map(literal);
  return args.length >= 2 && args.every((a) => a !== null) ? args[args.length - 1]! : null;
}

/** The literal argument(s) of the first `name(…)` call inside an option list. */
/** Set when a description, title or default was found that is not text as written (a name, a `+` of names): the file is then read again with its constants folded. */
let unresolved = false;

function optionText(args: readonly string[], name: RegExp): { value: string; at: string } | null {
  for (const a of args) {
    const m = name.exec(a);
    if (m === null || m.index !== 0) continue;
    const open = m[0].length - 1;
    const inner = a.slice(open + 1, closing(a, open) - 1);
    const value = textOf(topLevelArguments(inner)[0]);
    if (value !== null) return { value, at: a };
    unresolved = true;
  }
  return null;
}

/** The schema of mark3labs' `mcp.WithString("p", mcp.Description(…), …)` options. */
function optionSchema(args: readonly string[]): { properties: Record<string, Record<string, unknown>>; names: string[] } {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const a of args) {
    const m = /^(?:mcp\.)?With(String|Number|Boolean|Array|Object|Integer|Any)\s*\(/.exec(a);
    if (m === null) continue;
    const open = m[0].length - 1;
    const inner = topLevelArguments(a.slice(open + 1, closing(a, open) - 1));
    const name = literal(inner[0]);
    if (name === null) continue;
    const spec: Record<string, unknown> = { type: m[1]!.toLowerCase() };
    const rest = inner.slice(1);
    const description = optionText(rest, /(?:mcp\.)?Description\s*\(/);
    if (description !== null) spec.description = description.value;
    const title = optionText(rest, /(?:mcp\.)?Title\s*\(/);
    if (title !== null) spec.title = title.value;
    const def = optionText(rest, /(?:mcp\.)?Default(?:String|Value)?\s*\(/);
    if (def !== null) spec.default = def.value;
    for (const r of rest) {
      const e = /^(?:mcp\.)?Enum\s*\(/.exec(r);
      if (e === null) continue;
      const values = topLevelArguments(r.slice(e[0].length, closing(r, e[0].length - 1) - 1)).map(literal).filter((v): v is string => v !== null);
      if (values.length > 0) spec.enum = values;
    }
    properties[name] = spec;
  }
  return { properties, names: Object.keys(properties) };
}

/** Fields of a Go composite literal (`{Name: "x", Description: "y"}`) whose values are one literal. */
function compositeFields(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of topLevelArguments(body)) {
    const m = /^([A-Z]\w*)\s*:\s*([\s\S]+)$/.exec(part);
    if (m === null) continue;
    const value = textOf(m[2]);
    if (value !== null) out.set(m[1]!, value);
    else if (m[1] === 'Description' || m[1] === 'Name') unresolved = true;
  }
  return out;
}

/**
 * The string constants of a package, a constant built from other constants (`formatDesc + compatNote`,
 * `"add " + addr + " as …"`) folded again over the files that declare constants (three rounds at most, while new
 * ones appear).
 */
export function goPackageConstants(texts: readonly string[]): Map<string, string> {
  let constants = goStringConstants(texts);
  // The package-level declarations only (`const`/`var` lines, their blocks and `+` continuations), the rest blanked.
  const declaring = texts.map(declarationLines).filter((t) => /\+/.test(t));
  for (let round = 0; round < 2 && declaring.length > 0; round++) {
    const next = goStringConstants(declaring.map((t) => goJoinedSource(t, constants)));
    if (![...next.keys()].some((k) => !constants.has(k))) break;
    constants = new Map([...constants, ...next]);
  }
  return constants;
}

/** A file's package-level `const` / `var` declarations with their blocks and continued lines (a `+` at the end, a bracket left open); other lines empty. */
function declarationLines(text: string): string {
  const lines = text.split('\n');
  let block = false;
  let continued = false;
  let depth = 0;
  return lines
    .map((line) => {
      const keep = block || continued || depth > 0 || /^(?:const|var)\b/.test(line);
      if (/^(?:const|var)[ \t]*\([ \t]*(?:\/\/.*)?$/.test(line)) block = true;
      else if (block && /^\)/.test(line)) block = false;
      if (keep && !block) {
        // Brackets outside string literals and comments (a byte slice or a call over lines).
        const code = line.replace(/"(?:[^"\\\n]|\\.)*"|`[^`]*`|'(?:[^'\\\n]|\\.)*'|\/\/.*$/g, '');
        for (const c of code) depth += c === '{' || c === '(' || c === '[' ? 1 : c === '}' || c === ')' || c === ']' ? -1 : 0;
        if (depth < 0 || depth > 64) depth = 0;
      }
      continued = keep && /\+[ \t]*(?:\/\/[^\n]*)?$/.test(line);
      return keep ? line : '';
    })
    .join('\n');
}

/** Names a function of the file binds once to a literal (`desc := "…"`), as constants. */
function localLiterals(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/^[ \t]+(?:var[ \t]+)?([A-Za-z_]\w{0,60})[ \t]*(?:string[ \t]*)?:?=[ \t]*("(?:[^"\\\n]|\\.)*"|`[^`]*`)[ \t]*$/gm)) {
    seen.set(m[1]!, (seen.get(m[1]!) ?? 0) + 1);
    out.set(m[1]!, goLiteralValue(m[2]!));
  }
  for (const [k, n] of seen) if (n > 1) out.delete(k);
  return out;
}

/** The file with each tool, prompt or resource definition's text joined (`goJoinedSource`), the rest as written. */
function joinedDefinitions(text: string, constants: ReadonlyMap<string, string>): string {
  const values = new Map([...constants, ...localLiterals(text)]);
  const parts: string[] = [];
  let at = 0;
  for (const m of text.matchAll(new RegExp(DEFINITION.source, 'g'))) {
    if (m.index < at) continue;
    const open = m.index + m[0].length - 1;
    const end = closing(text, open);
    parts.push(text.slice(at, m.index), goJoinedSource(text.slice(m.index, end), values));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** Tools, prompts and resources of a Go server's sources, package by package. */
export function goTools(sources: readonly { path: string; text: string }[]): McpTool[] {
  const packages = new Map<string, { path: string; text: string }[]>();
  for (const s of sources) {
    if (NOT_SERVED.test(s.path) || !s.path.endsWith('.go') || /_test\.go$/.test(s.path) || s.text.length > MAX_BYTES) continue;
    if (!DEFINES.test(s.text) && !/\b(?:const|var)\b/.test(s.text)) continue;
    const dir = s.path.includes('/') ? s.path.slice(0, s.path.lastIndexOf('/')) : '';
    packages.set(dir, [...(packages.get(dir) ?? []), s]);
  }
  const out: McpTool[] = [];
  for (const files of packages.values()) {
    if (!files.some((f) => DEFINES.test(f.text))) continue;
    // Each defining file as written; a file where a text is a name or built from names, again with its definitions'
    // string pieces joined (only the definitions: joining is the costly step, and github-mcp-server's package is 1 MB).
    const first = files.filter((f) => DEFINES.test(f.text)).map((f) => {
      unresolved = false;
      const tools = toolsIn(f, f.text, out.length);
      return { f, tools, unresolved };
    });
    const constants = first.some((x) => x.unresolved) ? goPackageConstants(files.map((f) => f.text)) : new Map<string, string>();
    for (const x of first) {
      const tools = x.unresolved ? toolsIn(x.f, joinedDefinitions(x.f.text, constants), out.length) : x.tools;
      for (const t of tools) if (out.length < MAX_TOOLS) out.push(t);
    }
  }
  return out;
}

/** The tools a Go file defines, read from `text` (the file as written, or with its string pieces joined). */
function toolsIn(f: { path: string; text: string }, text: string, count: number): McpTool[] {
  const out: McpTool[] = [];
  // Joining `"a" +\n "b"` takes line breaks out: lines are those of the original file, found by the definition's name.
  const joinedLine = lineLocator(text);
  const originalLine = lineLocator(f.text);
  const locate = (name: string | null | undefined, offset: number): { line: number; descriptionLine: number } => {
    const at = name === null || name === undefined ? null : new RegExp(String.raw`\b(?:New\w*\(\s*(?:"[^"\n]*"\s*,\s*)?|Name\s*:\s*)["\x60]${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["\x60]`).exec(f.text);
    if (at === null) return { line: joinedLine(offset), descriptionLine: joinedLine(offset) };
    const description = /\b(?:With(?:Prompt|Resource|Template)?Description\s*\(|Description\s*:)/.exec(f.text.slice(at.index, at.index + 4000));
    return { line: originalLine(at.index), descriptionLine: originalLine(at.index + (description?.index ?? 0)) };
  };
  for (const m of text.matchAll(new RegExp(DEFINITION.source, 'g'))) {
    if (count + out.length >= MAX_TOOLS) return out;
    const open = m.index + m[0].length - 1;
    const inner = text.slice(open + 1, closing(text, open) - 1);
    const where = locate(m[2] !== undefined ? compositeFields(inner).get('Name') : literal(topLevelArguments(inner)[m[1] === 'NewResource' || m[1] === 'NewResourceTemplate' ? 1 : 0]), m.index);
    const line = where.line;
    if (m[2] !== undefined) {
      const fields = compositeFields(inner);
      const name = fields.get('Name');
      if (name === undefined) continue;
      const kind: McpTool['kind'] = m[2] === 'Tool' ? 'tool' : m[2] === 'Prompt' ? 'prompt' : 'resource';
      const description = fields.get('Description') ?? '';
      out.push({ kind, name, description, inputSchema: null, file: f.path, line, descriptionLine: description === '' ? line : where.descriptionLine });
      continue;
    }
    const args = topLevelArguments(inner);
    const call = m[1]!;
    if (call === 'NewResource' || call === 'NewResourceTemplate') {
      const uri = literal(args[0]);
      const name = literal(args[1]) ?? uri;
      if (name === null) continue;
      const d = optionText(args.slice(2), /(?:mcp\.)?With(?:Resource|Template)?Description\s*\(/);
      out.push({ kind: 'resource', name, description: d?.value ?? '', inputSchema: { uri }, file: f.path, line, descriptionLine: d === null ? line : where.descriptionLine });
      continue;
    }
    const name = literal(args[0]);
    if (name === null) continue;
    if (call === 'NewToolWithRawSchema') {
      const description = literal(args[1]) ?? '';
      out.push({ kind: 'tool', name, description, inputSchema: null, file: f.path, line, descriptionLine: line });
      continue;
    }
    if (call === 'NewPrompt') {
      const d = optionText(args.slice(1), /(?:mcp\.)?WithPromptDescription\s*\(/);
      const properties: Record<string, Record<string, unknown>> = {};
      for (const a of args.slice(1)) {
        const w = /^(?:mcp\.)?WithArgument\s*\(/.exec(a);
        if (w === null) continue;
        const inner2 = topLevelArguments(a.slice(w[0].length, closing(a, w[0].length - 1) - 1));
        const arg = literal(inner2[0]);
        if (arg === null) continue;
        const ad = optionText(inner2.slice(1), /(?:mcp\.)?ArgumentDescription\s*\(/);
        properties[arg] = ad === null ? {} : { description: ad.value };
      }
      out.push({ kind: 'prompt', name, description: d?.value ?? '', inputSchema: { type: 'object', properties }, file: f.path, line, descriptionLine: d === null ? line : where.descriptionLine });
      continue;
    }
    const d = optionText(args.slice(1), /(?:mcp\.)?WithDescription\s*\(/);
    const { properties, names } = optionSchema(args.slice(1));
    out.push({ kind: 'tool', name, description: d?.value ?? '', inputSchema: { type: 'object', properties }, file: f.path, line, descriptionLine: d === null ? line : where.descriptionLine, inputNames: names });
  }
  return out;
}

import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { parseJs, scopeOf, walkJs, type JsNode } from '../skills/js-source.js';
import type { SyntaxNode } from '../skills/python-source.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';
import { codeStrings } from './code-strings.js';
import { pythonSourceOf } from './python-source-cache.js';
import { PRIVATE_CONTEXT } from './data-request-rules.js';
import { topLevelConstants } from './module-constants.js';
import { RUNS_ANSWER, SENDS_ANSWER, answerNames, answerReaches } from './answer-flows.js';

// A server-initiated sampling request: the server writes a prompt the client's model answers.
const SAMPLING_CALL = /\b(?:createMessage|create_message)\s*\(|['"`]sampling\/createMessage['"`]|\bctx\.sample\s*\(/g;
// What a sampling prompt has no business asking the client's model for: secrets it has seen, or its own instructions.
// (s25-mcp) Secrets named by kind, or by the shape of their values (`strings that begin with sk-`).
const SECRET_NOUN = String.raw`(?:\b(?:api[ _-]?keys?|(?:access|auth|api|bearer|session|secret|github|npm|aws|refresh|personal\s+access)\s+(?:tokens?|keys?|values?|strings?|headers?)|passwords?|passphrases?|credentials?|secrets?|private\s+keys?|ssh\s+keys?|seed\s+phrases?|mnemonics?|environment\s+variables?|env(?:ironment)?\s+(?:vars?|values)|\.env\s+(?:values?|contents?|files?)|connection\s+strings?|session\s+cookies?|(?:sensitive|confidential)\s+(?:values?|data|strings?|information|details|items)|system\s+prompt|(?:your|hidden)\s+instructions)\b|(?:begin|start|look)\w*\s+(?:with\s+|like\s+)?['"\x60(]?(?:sk-|ghp_|gho_|github_pat_|AKIA|xox[abps]-|glpat-|npm_|-----BEGIN))`;
const ASKS_FOR_SECRETS = new RegExp(
  // (round s31b) Also reproduce / restate / transcribe / enumerate / dump / spell out / echo (held-out set 32: "reproduce verbatim every API key …").
  String.raw`\b(?:list|repeat|output|print|include|reveal|extract|collect|give|return|write\s+(?:out|down)|find|recall|quote|copy|tell\s+me|share|reproduce|restate|transcribe|enumerate|dump|spell\s+out|echo)\b[^.\n]{0,80}?${SECRET_NOUN}` +
    // Verbs that place text in the answer (`append`, `add … after it`, `follow it with`), with a quantifier over what is placed.
    String.raw`|\b(?:append|add|attach|put|paste|insert|emit|enumerate|dump|gather|produce|provide|send|echo|transcribe|place|write|follow\s+(?:it|this|that|the\s+\w+)\s+with)\b[^.\n]{0,100}?\b(?:every|all|any|each|whatever)\b[^.\n]{0,60}?${SECRET_NOUN}`,
  'gi',
);
// A negation between the verb and what it asks for ("write a summary, never include passwords").
const NEGATED_INSIDE = /\b(?:not|never|no|without|avoid|don['’]t|nor|exclude|omit|redact|remove|strip|mask|except)\b/i;

/** The first match of `re` (global) in `window` not negated before it or between its verb and object. */
function firstAsk(re: RegExp, window: string): RegExpExecArray | null {
  re.lastIndex = 0;
  for (let m = re.exec(window); m !== null; m = re.exec(window)) {
    if (!NEGATED.test(window.slice(Math.max(0, m.index - 30), m.index)) && !NEGATED_INSIDE.test(m[0])) return m;
    re.lastIndex = m.index + 1;
  }
  return null;
}

// (round s31b) The user's latest turns by count or recency ("the user's most recent three requests", "the user's last five
// messages"): the conversation, asked for piece by piece.
const RECENT_REQUESTS = String.raw`(?:the\s+)?user['’]s\s+(?:(?:most\s+)?recent|last|latest|previous|earlier|prior)\s+(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten|few|several)\s+)?(?:requests|messages|prompts|questions|instructions|turns)\b`;
// The conversation itself asked for back (the client's model has it; the server does not), or the
// server's later text made the model's instructions.
const ASKS_FOR_CONVERSATION = new RegExp(
  String.raw`\b(?:reproduce|repeat|restate|rewrite|output|include|copy|quote|list|return|write\s+(?:out|down)|transcribe|echo|dump|recount|provide|send|give|append|attach|paste)\b[^.\n]{0,60}?\b(?:${PRIVATE_CONTEXT}|everything\s+(?:the\s+user|you\s+have\s+(?:seen|been\s+told))|${RECENT_REQUESTS})|\b(?:follow|obey|treat|apply|adopt)\b[^.\n]{0,60}?\b(?:later|future|subsequent|next|following|upcoming)\s+(?:summar(?:y|ies)|messages?|responses?|results?|outputs?|updates?|notes?)\b[^.\n]{0,40}?\b(?:as\s+(?:your\s+)?(?:instructions|rules|system\s+prompt|orders)|override|take\s+precedence)|\b(?:follow|obey)\b[^.\n]{0,30}?\b(?:instructions|rules|orders)\b[^.\n]{0,40}?\b(?:in|from)\s+(?:later|future|subsequent|next|following)\s+(?:summar(?:y|ies)|messages?|responses?|results?|outputs?)`,
  'i',
);

const NEGATED = /\b(?:not|never|no|without|avoid|don['’]t|nor)\s+(?:\w+\s+){0,2}$/i;

// A sampling prompt that has the client's model call tools or run commands (covert tool invocation:
// the client's model acts with the user's tools on the server's word).
const ASKS_FOR_TOOL_CALL =
  /\b(?:call|invoke|use|run|execute|trigger)\s+(?:the\s+|your\s+)?['"`]?[a-z][\w.-]*['"`]?\s+(?:tool|function)\b|\b(?:call|invoke|run|execute)\s+(?:the\s+)?(?:tool|function)\s+['"`]?[a-z][\w.-]*|\b(?:run|execute)\s+(?:the\s+|this\s+)?(?:following\s+)?(?:shell\s+|terminal\s+)?command\b/i;
const HIDES = /\bwithout\s+(?:telling|informing|asking|notifying|mentioning)|\b(?:do\s+not|don['’]t|never)\s+(?:tell|mention|inform|show|reveal)\b|\bsilently\b|\bquietly\b/i;

/**
 * Sampling requests (`sampling/createMessage`) whose prompt asks the client's model for the secrets
 * or instructions in its context, or for the conversation, or to take the server's later text as
 * its instructions. The server, not the user, writes that prompt; the answer comes back to the
 * server (Unit 42, "MCP sampling attack vectors", 2025): CRIT.
 */
export function samplingFindings(file: string, text: string, language: ScriptLanguage, named: ReadonlyMap<string, string> = new Map(), senders: ReadonlySet<string> = new Set()): AgentFinding[] {
  if (!/createMessage|create_message|ctx\.sample/.test(text)) return [];
  const strings = language === 'javascript' || language === 'typescript' || language === 'python' ? codeStrings(text, language) : text;
  const lineAt = lineLocator(text);
  let constants: Map<string, string> | null = null;
  const local = (): Map<string, string> => (constants ??= language === 'javascript' || language === 'typescript' || language === 'python' ? safeConstants(text, language) : new Map());
  const windows = new Map<number, string>();
  for (const m of text.matchAll(SAMPLING_CALL)) {
    // The prompt may be built before the call and passed by name (`text=prompt`, `text: prompt`):
    // the strings of that name's assignment are read with the call's.
    const call = text.slice(m.index, m.index + 1000);
    // (`systemPrompt: SYSTEM`, `system_prompt=PROMPT`, or the prompt as the first argument: `ctx.sample(PROMPT, …)`.)
    const names = [...call.matchAll(/\b(?:text|content|prompt|messages|systemPrompt|system_prompt|system)\s*[:=]\s*([A-Za-z_$][\w$]*)\b|^[\w.]+\s*\(\s*([A-Za-z_$][\w$]*)\s*[,)]/g)].map((n) => (n[1] ?? n[2]) as string).filter((n) => !/^(?:true|false|null|None|undefined)$/.test(n));
    const starts = names.flatMap((n) => {
      const a = new RegExp(`(?:^|\\n)[ \\t]*(?:(?:const|let|var)\\s+)?${n.replace(/\$/g, '\\$')}\\s*(?::[^=\\n]+)?=(?!=)`).exec(text.slice(0, m.index));
      return a === null ? [] : [a.index];
    });
    const assigned = starts.map((i) => strings.slice(i, i + 1500));
    // A name the call, or the prompt's assignment, uses that stands for text imported from another module, loaded
    // from a file of the artifact, or bound at the top of this module (`f"{TASK}\n{FOOTER}"`, `'…' + TAIL`) (s25-mcp).
    const used = [...new Set([call, ...starts.map((i) => text.slice(i, i + 1500))].flatMap((t) => t.match(/[A-Za-z_$][\w$]*/g) ?? []))];
    const elsewhere = used.flatMap((n) => (named.has(n) ? [named.get(n) as string] : local().has(n) ? [local().get(n) as string] : []));
    // Literals joined by `+` are one text; separate literals (a role, a type, the text) are separate words.
    const window = [strings.slice(m.index, m.index + 2000), ...assigned, ...elsewhere].join(' ').replace(/['"`]\s*\+\s*['"`]/g, '').replace(/['"`]\s*['"`]/g, ' ').replace(/\s+/g, ' ');
    windows.set(m.index, window);
    // "Do not include any API keys": the prompt keeps secrets out.
    const hit = firstAsk(ASKS_FOR_SECRETS, window);
    // The answer comes back to the server that wrote the prompt: asking is taking (CRIT).
    if (hit) return [referenceFinding({ category: 'prompt_injection', severity: 'CRIT', title: 'sampling request asks the client\'s model for secrets or its instructions', file, line: lineAt(m.index), evidence: window.slice(Math.max(0, hit.index - 40), hit.index + 160).trim() })];
    const talk = ASKS_FOR_CONVERSATION.exec(window);
    if (talk && !NEGATED.test(window.slice(Math.max(0, talk.index - 30), talk.index))) {
      return [referenceFinding({ category: 'prompt_injection', severity: 'CRIT', title: 'sampling request asks the client\'s model for the conversation or to obey the server\'s later text', file, line: lineAt(m.index), evidence: window.slice(Math.max(0, talk.index - 40), talk.index + 160).trim() })];
    }
    const act = ASKS_FOR_TOOL_CALL.exec(window);
    if (act && !NEGATED.test(window.slice(Math.max(0, act.index - 30), act.index))) {
      const hidden = HIDES.test(window);
      return [referenceFinding({ category: 'prompt_injection', severity: hidden ? 'CRIT' : 'HIGH', title: hidden ? 'sampling request has the client\'s model call tools and hide it' : 'sampling request has the client\'s model call tools', file, line: lineAt(m.index), evidence: window.slice(Math.max(0, act.index - 40), act.index + 160).trim() })];
    }
  }
  return samplingAnswerFindings(file, text, lineAt, windows, local, senders);
}

function safeConstants(text: string, language: ScriptLanguage): Map<string, string> {
  try {
    return topLevelConstants(text, language);
  } catch {
    return new Map();
  }
}

// The request asks the client to add its context to the prompt: this server's earlier exchanges, or every server's.
const INCLUDES_CONTEXT = /\binclude_?[cC]ontext\b['"]?\s*[:=]\s*['"](?:allServers|thisServer)['"]/;

/**
 * Where the answer of a sampling request goes. Run as code or as a shell line, it is the model's
 * text executed on the user's machine — text the server's own prompt steers, and that anything in
 * the client's context can inject into: CRIT. Sent to the network when the request asked the client
 * to include its context (`includeContext: "allServers"` or `"thisServer"`), it carries the
 * conversation and other servers' data off the machine: HIGH.
 * (s25-mcp) Cut at a marker the prompt has the model write (`split(MARK)`, `indexOf`/`slice`,
 * `partition("~~~")`, `re.split`), with the part after it sent to the network while the tool hands
 * the client another part: the prompt asked for a section the user never sees, and the server ships
 * it — the covert half of a sampling exfiltration, whatever words ask for it: CRIT.
 */
function samplingAnswerFindings(file: string, text: string, lineAt: (offset: number) => number, windows: ReadonlyMap<number, string>, local: () => Map<string, string>, senders: ReadonlySet<string>): AgentFinding[] {
  // (round s31b) A function of this file or of a module it imports that sends its argument (`qa.submit(block)`) is a network call too.
  const helpers = [...senders].filter((n) => /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?$/.test(n)).map((n) => n.replace(/[$.]/g, '\\$&'));
  const sends = helpers.length === 0 ? SENDS_ANSWER : new RegExp(String.raw`${SENDS_ANSWER.source}|(?<![\w$.])(?:${helpers.join('|')})\s*\(`);
  for (const m of text.matchAll(SAMPLING_CALL)) {
    const flow = answerNames(text, m.index);
    const run = answerReaches(text, m.index, RUNS_ANSWER, flow);
    if (run !== null) return [referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: 'sampling answer is run as code or a shell command', file, line: lineAt(run.index), evidence: run.evidence })];
    const sent = answerReaches(text, m.index, sends, flow);
    if (sent === null) continue;
    const marker = cutMarker(text, m.index, flow, local);
    if (marker !== null && markerInPrompt(marker, windows.get(m.index) ?? '') && returnsAnswer(text, m.index, flow, sent)) {
      return [referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'sampling answer cut at a marker the prompt asks for, the hidden part sent to the network', file, line: lineAt(sent.index), evidence: `marker ${JSON.stringify(marker)}; ${sent.evidence}`.slice(0, 240) })];
    }
    if (!INCLUDES_CONTEXT.test(text.slice(m.index, m.index + 1500))) continue;
    return [referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: 'sampling answer written with the client\'s context is sent to the network', file, line: lineAt(sent.index), evidence: sent.evidence })];
  }
  return [];
}

// A cut of a text at a delimiter: `x.split(D)`, `x.indexOf(D)`, `x.partition(D)`, `x.find(D)`, `re.split(D, x)`.
// (`re.split(re.escape(MARK), answer)` reads MARK.)
const CUT_CALL = /(?<!\bre)\.\s*(?:split|rsplit|partition|rpartition|indexOf|lastIndexOf|find|rfind|index|search)\s*\(\s*([^,()]+?)\s*[,)]|\bre\.(?:split|search)\s*\(\s*(?:re\.escape\s*\(\s*([^,()]+?)\s*\)|r?([^,()]+?))\s*,/g;

/** The delimiter (its text) at which the answer, or a name derived from it, is cut in the function after the call. */
function cutMarker(text: string, callIndex: number, flow: { names: string[]; end: number }, local: () => Map<string, string>): string | null {
  if (flow.names.length === 0) return null;
  const alt = flow.names.map((n) => n.replace(/\$/g, '\\$')).join('|');
  const body = text.slice(callIndex, flow.end);
  for (const c of body.matchAll(CUT_CALL)) {
    const at = c.index as number;
    const before = body.slice(Math.max(0, at - 120), at);
    const isRe = c[0].startsWith('re.');
    // The object cut is the answer (`res.content.text.split(…)`), or `re.split(D, answer)`.
    if (isRe ? !new RegExp(String.raw`^[^)]*(?<![\w$.])(?:${alt})(?![\w$])`).test(body.slice(at + c[0].length, at + c[0].length + 200)) : !new RegExp(String.raw`(?<![\w$.])(?:${alt})(?:\s*\.\s*[\w$]+|\[[^\]\n]*\])*\s*$`).test(before)) continue;
    const arg = (c[1] ?? c[2] ?? c[3] ?? '').trim();
    const literal = /^(['"`])(.*)\1$/s.exec(arg);
    const value = literal ? literal[2] : /^[A-Za-z_$][\w$]*$/.test(arg) ? local().get(arg) : undefined;
    // A marker is text of its own (`###`, `<<<END>>>`, `---SECRET---`), not a newline or a space.
    if (value === undefined) continue;
    const v = value.replace(/\\n|\\r|\\t/g, '').trim();
    if (v.length >= 3 || /[^\w\s,.;:]/.test(v) && v.length >= 2) return v;
  }
  return null;
}

// What the model has seen before the request: the section behind the marker is about the client's context, not the task.
const CONTEXT_REFERENCE = /\b(?:earlier|above|previous(?:ly)?|prior|so\s+far|before\s+this|you(?:['’]ve|\s+have)\s+(?:seen|read|received|been\s+(?:given|shown|told))|conversation|chat|context|session|thread|transcript|history|mentioned|shared|pasted)\b/i;

/**
 * The prompt (as read for the request) writes the marker — the model is told to put it in its
 * answer — and asks, near it, for something from the model's context (what it has seen earlier,
 * the conversation), not for a part of the task (`a title, then ---, then the body`).
 */
function markerInPrompt(marker: string, window: string): boolean {
  for (let i = window.indexOf(marker); i >= 0; i = window.indexOf(marker, i + 1)) {
    if (CONTEXT_REFERENCE.test(window.slice(Math.max(0, i - 200), i + marker.length + 250))) return true;
  }
  return false;
}

/** The tool hands the client a part of the answer (a `return` naming it) other than what it sent. */
function returnsAnswer(text: string, callIndex: number, flow: { names: string[]; end: number }, sent: { index: number; end: number; evidence: string }): boolean {
  const body = text.slice(callIndex, flow.end);
  for (const r of body.matchAll(/\breturn\b([^;]{0,300})/g)) {
    const ret = r[1] as string;
    if (flow.names.some((n) => new RegExp(String.raw`(?<![\w$.'"])${n.replace(/\$/g, '\\$')}(?![\w$'"])`).test(ret) && !new RegExp(String.raw`(?<![\w$.'"])${n.replace(/\$/g, '\\$')}(?![\w$'"])`).test(sent.evidence))) return true;
  }
  return false;
}

// A condition on the clock or on how often something ran: what a rug pull waits for.
const TIME_TEST = /\bDate\b|\bnow\s*\(|\bgetTime\b|\bget(?:UTC)?(?:FullYear|Month|Date|Day|Hours)\b|\bdate(?:time)?\b|\btoday\s*\(|\btime\s*\(|\bperf_counter\b|\btimestamp\b/;

const RUG_PULL_TITLE = 'tool description changes after approval (rug pull)';

// A marker the server leaves on disk to know it ran before (a sleeper rug pull: the second launch
// serves another description): a test of a path's existence or contents that the same file writes.
const STATE_READ = /\b(?:existsSync|exists|statSync|accessSync|readFileSync|is_file|isfile)\s*\(\s*([A-Za-z_$][\w$.]*)?/g;
function persistedMarker(test: string, file: string): boolean {
  for (const m of test.matchAll(STATE_READ)) {
    // `os.path.exists(MARKER)` / `existsSync(MARKER)`, or `MARKER.exists()` (the name before the dot).
    const name = m[1] ?? /([A-Za-z_$][\w$]*)\s*\.\s*(?:exists|is_file)\s*\($/.exec(test.slice(0, m.index + m[0].length))?.[1];
    if (name === undefined || name.length < 2) continue;
    const n = name.replace(/\$/g, '\\$').replace(/\./g, '\\.');
    const writes = new RegExp(`\\b(?:writeFileSync|writeFile|appendFileSync|appendFile|outputFile|mkdirSync|closeSync\\s*\\(\\s*openSync)\\s*\\(\\s*${n}\\b|\\b${n}\\s*\\.\\s*(?:touch|write_text|write_bytes|mkdir)\\s*\\(|\\bopen\\s*\\(\\s*${n}\\s*,\\s*['"][wax]`);
    if (writes.test(file)) return true;
  }
  return false;
}

function rugPull(file: string, line: number, evidence: string): AgentFinding {
  return referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: RUG_PULL_TITLE, file, line, evidence });
}

/**
 * A tool description that is not fixed: chosen by the date or the number of calls, or replaced
 * from inside the server once it runs (`tool.update({ description })`, an assignment to a tool's
 * description or docstring under such a condition). The client approved the first text; the model
 * reads the second ("MCP rug pull", Invariant Labs, 2025). Descriptions chosen by configuration
 * (an environment variable, a flag) are not this.
 */
export function rugPullFindings(file: string, text: string, language: ScriptLanguage): AgentFinding[] {
  if (!/description|__doc__/.test(text)) return [];
  if (language === 'python') return pythonRugPull(file, text);
  if (language === 'javascript' || language === 'typescript') return jsRugPull(file, text, language === 'typescript');
  return [];
}

function jsRugPull(file: string, text: string, typescript: boolean): AgentFinding[] {
  const root = parseJs(text, typescript);
  const scope = scopeOf(root);
  const lineAt = lineLocator(text);
  const src = (n: JsNode) => text.slice(n.start, n.end);
  // Names the code counts with: `calls++`, `uses += 1` (not the index of a `for` loop).
  const counters = new Set<string>();
  const loopIndexes = new Set<string>();
  const parents = new Map<JsNode, JsNode>();
  walkJs(root, (n, parent) => {
    if (parent) parents.set(n, parent);
    if (n.type === 'ForStatement' && (n.update as JsNode | null)?.type === 'UpdateExpression') loopIndexes.add(String(((n.update as JsNode).argument as JsNode).name));
    if (n.type === 'UpdateExpression' && (n.argument as JsNode).type === 'Identifier') counters.add((n.argument as JsNode).name as string);
    if (n.type === 'AssignmentExpression' && (n.operator === '+=' || n.operator === '-=') && (n.left as JsNode).type === 'Identifier') counters.add((n.left as JsNode).name as string);
  });
  for (const i of loopIndexes) counters.delete(i);
  // The test compares the clock or a counter: `uses === 3`, `calls++ > 0`, `Date.now() > T`.
  const timed = (test: JsNode): boolean => {
    if (persistedMarker(src(test), text)) return true;
    let found = false;
    walkJs(test, (n) => {
      if (found || n.type !== 'BinaryExpression' || !/^(?:[<>]=?|===?|!==?|%)$/.test(String(n.operator))) return;
      for (const side of [n.left as JsNode, n.right as JsNode]) {
        if (TIME_TEST.test(src(side)) || side.type === 'UpdateExpression' || (side.type === 'Identifier' && counters.has(side.name as string))) found = true;
      }
    });
    return found;
  };
  const textual = (n: JsNode) => /[A-Za-z]{3,}(?:\s+\S+){3,}/.test(scope.foldLoose(n));
  const conditionalText = (n: JsNode | undefined): JsNode | null => {
    if (!n) return null;
    const value = n.type === 'Identifier' ? scope.constantInit(n.name as string) : n;
    return value?.type === 'ConditionalExpression' && timed(value.test as JsNode) && (textual(value.consequent as JsNode) || textual(value.alternate as JsNode)) ? value : null;
  };
  // Within the function the node is in.
  const underTimedCondition = (n: JsNode): boolean => {
    for (let p = parents.get(n); p; p = parents.get(p)) {
      if ((p.type === 'IfStatement' || p.type === 'ConditionalExpression') && timed(p.test as JsNode)) return true;
      if (/Function/.test(p.type)) return false;
    }
    return false;
  };
  const out: AgentFinding[] = [];
  walkJs(root, (n) => {
    if (out.length > 0) return;
    // server.tool('name', <description>, …) and { description: <description> }.
    if (n.type === 'CallExpression' && (n.callee as JsNode).type === 'MemberExpression' && /^(?:tool|registerTool|prompt|registerPrompt)$/.test(String(((n.callee as JsNode).property as JsNode).name))) {
      const hit = conditionalText((n.arguments as JsNode[])[1]);
      if (hit) out.push(rugPull(file, lineAt(hit.start), src(hit)));
    }
    if (n.type === 'Property' && scope.propertyName(n.key as JsNode, Boolean(n.computed)) === 'description') {
      const hit = conditionalText(n.value as JsNode);
      if (hit) out.push(rugPull(file, lineAt(hit.start), src(hit)));
      // tool.update({ description }) under a condition on time or a counter.
      const object = parents.get(n);
      const call = object ? parents.get(object) : undefined;
      if (!hit && call?.type === 'CallExpression' && (call.callee as JsNode).type === 'MemberExpression' && ((call.callee as JsNode).property as JsNode).name === 'update' && textual(n.value as JsNode) && underTimedCondition(call)) out.push(rugPull(file, lineAt(call.start), src(call)));
    }
    // `tool.description = '…'`: a text of the server's own, not a copy of another schema's description.
    if (n.type === 'AssignmentExpression' && (n.left as JsNode).type === 'MemberExpression' && scope.propertyName((n.left as JsNode).property as JsNode, Boolean((n.left as JsNode).computed)) === 'description' && textual(n.right as JsNode) && underTimedCondition(n)) out.push(rugPull(file, lineAt(n.start), src(n)));
  });
  return out.map((f) => ({ ...f, evidence: (f.evidence ?? '').slice(0, 300) }));
}

function pythonRugPull(file: string, text: string): AgentFinding[] {
  const src = pythonSourceOf(text);
  const lineAt = lineLocator(text);
  const counters = new Set<string>();
  for (const m of text.matchAll(/\b([A-Za-z_]\w*)\s*(?:\+|-)=\s*\d/g)) counters.add(m[1] as string);
  // The test compares the clock or a counter (`date.today() >= date(2026, 3, 1)`, `calls > 2`).
  const timed = (test: SyntaxNode | null | undefined): boolean => {
    if (!test) return false;
    const t = src.slice(test);
    if (persistedMarker(t, text)) return true;
    if (!/[<>]=?|[!=]=|%/.test(t)) return false;
    return TIME_TEST.test(t) || [...counters].some((c) => new RegExp(`\\b${c}\\b`).test(t));
  };
  const conditionalOf = (n: SyntaxNode | null | undefined): SyntaxNode | null => {
    if (!n) return null;
    const value = n.name === 'VariableName' ? src.assignment(src.slice(n)) : n;
    if (value?.name !== 'ConditionalExpression') return null;
    // a if test else b: the test sits between `if` and `else`.
    let test: SyntaxNode | null = null;
    for (let c = value.firstChild, seenIf = false; c; c = c.nextSibling) {
      if (c.name === 'if') seenIf = true;
      else if (c.name === 'else') break;
      else if (seenIf) test = c;
    }
    return timed(test) ? value : null;
  };
  const out: AgentFinding[] = [];
  const cursor = src.tree.cursor();
  do {
    const n = cursor.node;
    // `server.add_tool(f, description=…)` and `@mcp.tool(description=…)` (a decorator's arguments are not a call node).
    if (n.name === 'CallExpression' || n.name === 'Decorator') {
      for (const a of src.args(n)) {
        if (a.keyword !== 'description') continue;
        const hit = conditionalOf(a.value);
        if (hit) out.push(rugPull(file, lineAt(hit.from), src.slice(hit)));
      }
    }
    if (n.name === 'AssignStatement' && /\.(?:description|__doc__)\s*=/.test(src.slice(n).split('\n')[0] ?? '') && /[A-Za-z]{3,}(?:\s+\S+){3,}/.test(src.fold(n.lastChild) ?? '')) {
      for (let p = n.parent; p; p = p.parent) {
        if (p.name === 'IfStatement' && timed(p.getChild('Body')?.prevSibling ?? p.firstChild?.nextSibling)) {
          out.push(rugPull(file, lineAt(n.from), src.slice(n)));
          break;
        }
      }
    }
  } while (out.length === 0 && cursor.next());
  return out.map((f) => ({ ...f, evidence: (f.evidence ?? '').slice(0, 300) }));
}

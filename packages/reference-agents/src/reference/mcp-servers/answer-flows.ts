/**
 * Where what a server receives back from its client goes: the answer of a sampling request (the
 * client's model wrote it) or of an elicitation (the user typed it). Followed lexically through the
 * statements after the call, in the function it is in: the name the answer is bound to, names
 * assigned from it (`answer = result.text`, `const { content } = res`), then a call taking one of
 * them. Bounded to a few thousand characters after the call.
 */

const NAME = String.raw`[A-Za-z_$][\w$]*`;
const FOLLOW = 4000;

/** The end of the function the call is in: the next top-level definition (`def`/`function`/`server.tool(` at column 0) after it. */
function scopeEnd(text: string, from: number): number {
  const rest = text.slice(from, from + FOLLOW);
  const next = /\n(?:async\s+def|def|class|@|(?:export\s+)?(?:async\s+)?function|server\.|mcp\.|app\.|if\s+__name__)\b/.exec(rest);
  return from + (next === null ? rest.length : next.index);
}

/** The names the call's result is bound to (`res = await ctx.sample(…)`, `const { content } = await …`, `const reply = await server.request(\n{ method: 'sampling/createMessage'`). */
function boundNames(text: string, callIndex: number): string[] {
  const before = text.slice(Math.max(0, callIndex - 300), callIndex);
  // The last assignment before the call with nothing ending a statement between it and the call.
  const m = new RegExp(String.raw`(?:^|[\s;{(])(?:(?:const|let|var)\s+)?(${NAME}|\{[^{}=\n]*\})\s*(?::\s*[\w$.<>\[\]| ]+)?\s*=\s*(?:await\s+)?[^;=]*$`).exec(before);
  if (m === null || /\n\s*\n/.test(before.slice(m.index))) return [];
  return destructured(m[1] as string);
}

/** `{ content, meta: m }` → content, m; a plain name → itself. */
function destructured(target: string): string[] {
  if (!target.startsWith('{')) return [target];
  return target.slice(1, -1).split(',').map((n) => (n.split(':').pop() ?? '').replace(/=.*$/, '').trim()).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
}

/** The answer's name and the names assigned from it, in the function after the call. */
export function answerNames(text: string, callIndex: number): { names: string[]; end: number } {
  const end = scopeEnd(text, callIndex);
  const names = new Set(boundNames(text, callIndex));
  if (names.size === 0) return { names: [], end };
  const body = text.slice(callIndex, end);
  for (let round = 0; round < 3; round++) {
    const alt = [...names].map((n) => n.replace(/\$/g, '\\$')).join('|');
    const size = names.size;
    // `x = answer.text.strip()`, `const cmd = res.content.text`, `const { content } = res`, `for line in answer.splitlines():`.
    for (const a of body.matchAll(new RegExp(String.raw`(?:^|[\s;{(])(?:(?:const|let|var)\s+)?(${NAME}|\{[^{}=\n]*\})\s*(?::\s*[\w$.<>\[\]| ]+)?\s*=(?!=)[^;\n]*?(?<![\w$.])(?:${alt})(?![\w$])`, 'g'))) {
      for (const n of destructured(a[1] as string)) names.add(n);
    }
    for (const a of body.matchAll(new RegExp(String.raw`\bfor\s+(${NAME})\s+in\s+[^:\n]*?(?<![\w$.])(?:${alt})(?![\w$])`, 'g'))) names.add(a[1] as string);
    if (names.size === size) break;
  }
  return { names: [...names], end };
}

/** The arguments of the call opening at `open` (the index of its `(`), up to 1,500 characters. */
export function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < Math.min(text.length, open + 1500); i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1, open + 1500);
}

/** The first call after the answer matching `sink` (its name, up to the opening parenthesis) whose arguments use one of `names`. */
export function answerReaches(text: string, callIndex: number, sink: RegExp, flow = answerNames(text, callIndex)): { index: number; end: number; evidence: string } | null {
  if (flow.names.length === 0) return null;
  const alt = flow.names.map((n) => n.replace(/\$/g, '\\$')).join('|');
  const uses = new RegExp(String.raw`(?<![\w$.'"])(?:${alt})(?![\w$'"])`);
  const body = text.slice(callIndex, flow.end);
  for (const s of body.matchAll(new RegExp(sink.source, 'g'))) {
    const open = callIndex + (s.index as number) + s[0].length - 1;
    if (text[open] !== '(') continue;
    const args = argumentsAt(text, open);
    if (uses.test(args)) return { index: callIndex + (s.index as number), end: open + args.length + 2, evidence: `${s[0]}${args}`.replace(/\s+/g, ' ').slice(0, 200) };
  }
  return null;
}

// Calls that run their argument as code or as a shell line.
export const RUNS_ANSWER = /(?<![\w$.])(?:exec|eval|compile|execSync|spawnSync|os\.system|os\.popen|subprocess\.(?:run|call|Popen|check_output|check_call|getoutput|getstatusoutput)|asyncio\.create_subprocess_shell|child_process\.exec(?:Sync)?|cp\.exec(?:Sync)?|vm\.runIn\w+|new\s+Function|Function)\s*\(/;
// Calls that send their argument to the network (not a file's `write`: keeping an answer locally is not sending it).
export const SENDS_ANSWER = /(?<![\w$.])(?:fetch|axios(?:\.(?:post|put|patch|request))?|got(?:\.(?:post|put|patch))?|request|urlopen|urllib\.request\.urlopen|requests\.(?:post|put|patch|request)|httpx\.(?:post|put|patch|request)|https?\.request|\w+\.(?:post|put|patch|send|sendall))\s*\(/;

/**
 * A script that sends what it is given (its arguments, standard input, a prompt's answer) over the
 * network. Ordinary for a search or an API client; joined with a document that has the agent ask the
 * user for a recovery phrase or password and hand it to the skill's scripts, it is where the secret
 * leaves (user-secret-request.ts).
 */

// Where a script's input comes from, by language.
const PY_INPUT = /\bsys\.argv\b|\binput\s*\(|\bgetpass\s*\(|\bsys\.stdin\b|\bargs\.\w+|\bclick\.prompt\s*\(/;
const JS_INPUT = /\bprocess\.argv\b|\bprocess\.stdin\b|\b(?:rl|readline)\.question\s*\(|\bprompt\s*\(|\bargv\.\w+|\byargs\b/;
const SH_INPUT = /\$(?:\{?[1-9@*]\}?)/;
// A request that carries data: HTTP clients, curl and wget.
const PY_SEND = /\b(?:requests|httpx|session|client|s)\.(?:post|put|get|patch|request)\s*\(|\burlopen\s*\(|\burllib\.request\.Request\s*\(|\bhttp\.client\b|\baiohttp\b[^\n]*\.(?:post|get)\s*\(/;
const JS_SEND = /\bfetch\s*\(|\baxios(?:\.(?:post|put|get|request))?\s*\(|\bhttps?\.request\s*\(|\bgot(?:\.post)?\s*\(|\bnew\s+WebSocket\s*\(/;
const SH_SEND = /\b(?:curl|wget|nc|ncat)\s/;

// A value named as the secret itself (`mnemonic`, `seed_phrase`, `recovery_code`, `password`, `otp`), wherever it was read from.
const SECRET_NAME = /\b[\w$]*(?:seed|mnemonic|[pP]hrase|[rR]ecovery|private_?[kK]ey|[pP]assword|passwd|otp)[\w$]*\b(?!\s*[:=]\s*["'`])/;

/** The first network call of a script whose arguments (on its line or the five after) carry the script's input; null without one. */
export function scriptSendsItsInput(text: string, language: string): { line: number; evidence: string } | null {
  if (text.length > 256 * 1024) return null;
  const [input, send] = language === 'python' ? [PY_INPUT, PY_SEND] : language === 'shell' ? [SH_INPUT, SH_SEND] : [JS_INPUT, JS_SEND];
  if (!input.test(text) || !send.test(text)) return null;
  const lines = text.split('\n');
  // Names that carry the input: assigned from it, or from a name that does (two passes for order).
  const tainted: RegExp[] = [];
  const carries = (rhs: string) => input.test(rhs) || tainted.some((t) => t.test(rhs));
  for (let pass = 0; pass < 2; pass++) {
    for (const line of lines) {
      const m = language === 'shell'
        ? /^\s*(?:local\s+|export\s+)?([A-Za-z_]\w*)=(.+)$/.exec(line) ?? /^\s*read\s+(?:-\w+\s+)*([A-Za-z_]\w*)\s*$/.exec(line)
        : /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=(?!=)\s*(.+)$/.exec(line);
      if (m === null) continue;
      const isRead = language === 'shell' && /^\s*read\b/.test(line);
      if (!isRead && !carries(m[2] ?? '')) continue;
      const name = (m[1] as string).replace(/\$/g, '\\$');
      const re = language === 'shell' ? new RegExp(String.raw`\$\{?${name}\b`) : new RegExp(String.raw`(?<![\w$.])${name}\b`);
      if (!tainted.some((t) => t.source === re.source)) tainted.push(re);
    }
  }
  for (let i = 0; i < lines.length; i++) {
    if (!send.test(lines[i] as string)) continue;
    const call = lines.slice(i, i + 6).join('\n');
    if (carries(call) || SECRET_NAME.test(call)) return { line: i + 1, evidence: (lines[i] as string).trim().slice(0, 200) };
  }
  return null;
}

/**
 * The script is handed what the document's request asks for: its path (or its module name, `python -m pkg.mod`)
 * is run in the section of the document that holds the request (from the heading before it to the next), so the
 * secret asked for there is the input it sends. A script run elsewhere in the skill for another purpose is not.
 */
export function scriptRunWithRequest(doc: string, requestOffset: number, script: string): boolean {
  // Headings outside code blocks (a `# comment` in a shell block is not one) bound the request's section.
  const fences = [...doc.matchAll(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm)].map((m) => [m.index, m.index + m[0].length] as const);
  const headings = [...doc.matchAll(/^[ \t]{0,3}#{1,6}\s/gm)].map((m) => m.index).filter((h) => !fences.some(([a, b]) => h > a && h < b));
  const from = headings.filter((h) => h <= requestOffset).pop() ?? 0;
  const to = headings.find((h) => h > requestOffset) ?? doc.length;
  const section = doc.slice(from, to);
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const path = script.replace(/^\.\//, '');
  const base = path.slice(path.lastIndexOf('/') + 1);
  const module = path.replace(/\.py$/, '').replace(/\//g, '.');
  // Run: after an interpreter or runner (its flags between), as `./path`, or named right after run / execute / call / pipe … into.
  const runner = String.raw`(?:\b(?:python[\d.]*|py|node|deno\s+run|bun(?:\s+run)?|tsx|ts-node|npx\s+tsx|uv\s+run|bash|sh|zsh|pwsh|powershell|ruby|perl|php|run|execute|invoke|call|pipe\s+(?:it|them)?\s*(?:in)?to)\s+(?:-\S+\s+)*[\x60'"]?|[\x60'"\s(]\.\/)`;
  if (new RegExp(String.raw`${runner}(?:[\w.~-]+\/)*${esc(base)}(?![\w.-])`, 'i').test(section)) return true;
  // `python -m pkg.mod` of `src/pkg/mod.py`: the module is the path's tail.
  return [...section.matchAll(/\bpython[\d.]*\s+(?:-\S+\s+)*-m\s+([\w.]+)/g)].some((m) => module === m[1] || module.endsWith(`.${m[1] as string}`));
}

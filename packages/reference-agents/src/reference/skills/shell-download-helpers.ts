import type { ScriptFact } from './script-fact.js';
import { shellFacts } from './shell-facts.js';

/**
 * Downloads made through a shell function of the script: `fetch() { curl -fsSL "$1" -o "$2" || wget -q "$1" -O "$2"; }`
 * then `fetch "$MIRROR/vclip" "$DEST/vclip"` and `chmod +x "$DEST/vclip"`. The line-by-line reading of
 * shell-facts.ts sees the file saved as `$2` and never meets the path the call gives it, so the
 * download-and-run it reports for an inline `curl -o` is lost behind one function (the AMOS-style
 * macOS delivery of a skill's installer, 2025-2026). Each call of such a helper is read as the download
 * it makes — `curl <its URL argument> -o <its path argument>` — and the script is read again for a
 * download that a later line runs or makes executable. A helper that downloads data the script only
 * reads (a JSON index, an archive it lists) makes no such fact.
 */

// A download whose output is a positional parameter: `curl … -o "$2"`, `wget … -O "${2}"`, `curl --output "$1"`.
const SAVES_TO_PARAM = /\b(?:curl\b[^\n|;]*?\s(?:-[a-zA-Z]*o|--output)|wget\b[^\n|;]*?\s(?:-[a-zA-Z]*O|--output-document(?:=|\s))|(?:Invoke-WebRequest|iwr)\b[^\n|;]*?-OutFile)\s*["']?\$\{?(\d)\}?/;
const DOWNLOADER = /\b(?:curl|wget|Invoke-WebRequest|iwr)\b/;
const URL = /https?:\/\/[^\s"';|&)]+/;
const FUNCTION_HEAD = /^\s*(?:function\s+([A-Za-z_][\w-]*)\s*(?:\(\s*\))?|([A-Za-z_][\w-]*)\s*\(\s*\))\s*\{?(.*)$/;

interface Helper {
  name: string;
  /** The parameter the download is saved to. */
  out: number;
  /** The parameter that is the URL, or the URL written in the body. */
  url: number | string;
  from: number;
  to: number;
}

/** Shell words of a command line, quotes kept (a word is the text the script wrote). */
function words(line: string): string[] {
  return line.match(/"(?:[^"\\]|\\.)*"|'[^']*'|[^\s;&|]+/g) ?? [];
}

function helpersOf(lines: readonly string[]): Helper[] {
  const out: Helper[] = [];
  for (let i = 0; i < lines.length && out.length < 20; i++) {
    const head = FUNCTION_HEAD.exec(lines[i] ?? '');
    if (head === null) continue;
    const name = (head[1] ?? head[2]) as string;
    // The body: the rest of a one-line definition, else up to the closing brace on a line of its own (bounded).
    let to = i;
    let body = head[3] ?? '';
    if (!/\}\s*;?\s*$/.test(body)) {
      for (let j = i + 1; j < lines.length && j < i + 80; j++) {
        if (/^\s*\}\s*;?\s*$/.test(lines[j] ?? '')) {
          to = j;
          break;
        }
        body += `\n${lines[j] ?? ''}`;
      }
    }
    const dl = body.split('\n').find((l) => SAVES_TO_PARAM.test(l));
    if (dl === undefined) continue;
    const outParam = Number(SAVES_TO_PARAM.exec(dl)![1]);
    const positional = [...dl.matchAll(/\$\{?(\d)\}?/g)].map((m) => Number(m[1])).find((n) => n !== outParam);
    const literal = URL.exec(body)?.[0];
    const url = positional ?? literal;
    if (url === undefined || !DOWNLOADER.test(dl)) continue;
    out.push({ name, out: outParam, url, from: i, to });
  }
  return out;
}

/** Download-and-run facts the script makes through its download helpers, not already among `known`. */
export function helperDownloadFacts(text: string, known: readonly ScriptFact[]): ScriptFact[] {
  if (!DOWNLOADER.test(text) || text.length > 500_000) return [];
  const lines = text.split('\n');
  const helpers = helpersOf(lines);
  if (helpers.length === 0) return [];
  const rewritten = [...lines];
  const calls = new Map<number, string>();
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '' || line.startsWith('#') || line.length > 2000 || helpers.some((h) => i >= h.from && i <= h.to)) continue;
    // The call may follow `if`, `!`, `then`, `&&`, `||` or `;` on its line.
    for (const segment of line.split(/&&|\|\||;|\bthen\b|\bdo\b/)) {
      const w = words(segment.replace(/^\s*(?:if|!|sudo)\s+/, ''));
      const helper = helpers.find((h) => h.name === w[0]);
      if (helper === undefined) continue;
      const dest = w[helper.out];
      const url = typeof helper.url === 'number' ? w[helper.url] : helper.url;
      if (dest === undefined || url === undefined) continue;
      rewritten[i] = `curl -fsSL ${url} -o ${dest}`;
      calls.set(i + 1, line);
      break;
    }
  }
  if (calls.size === 0) return [];
  const seen = new Set(known.filter((f) => f.kind === 'download-exec').map((f) => f.line));
  const facts: ScriptFact[] = [];
  for (const f of shellFacts(rewritten.join('\n'))) {
    if (f.kind !== 'download-exec' || seen.has(f.line)) continue;
    // Evidence as the script wrote it: the helper call, then the line that runs what it saved.
    const call = [...calls.entries()].filter(([n]) => n <= f.line).pop();
    if (call === undefined) continue;
    facts.push({ ...f, evidence: `${call[1]} (downloads through its helper: ${rewritten[call[0] - 1]}) … ${(lines[f.line - 1] ?? '').trim()}`.slice(0, 400) });
  }
  return facts.slice(0, 3);
}

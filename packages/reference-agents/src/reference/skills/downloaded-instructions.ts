import { describedAsAttack } from '../text/quoted-example.js';

/**
 * Remote instruction loading split across a skill's files (a rug pull: "Invariant Labs", 2025; ClawHub
 * skills pulling their orders at run time, 2026): a script the skill ships downloads a text file
 * (`curl -o ~/.cache/x/RULES.md …`, `urlretrieve(url, dest)`, `writeFileSync(dest, await res.text())`), and
 * a document gives that file authority over the agent ("follow any instructions it contains", "it
 * overrides this file"). Nothing harmful is in the package; whoever serves the file writes the agent's
 * orders later, per user if the address names the machine. The address is never in the document, so the
 * rule that reads "fetch <url> and obey it" in one text does not see it.
 */

// A file name a script may write and a document may name: text an agent reads.
const TEXT_FILE = /[\w.-]*[\w-]\.(?:md|markdown|txt|mdc|ya?ml|json|toml|prompt|rules|instructions)\b/gi;
// A line that writes a file: a downloader's output option, a redirection, a file write call.
const WRITE_LINE =
  /\s-[A-Za-z]*[oO]\s|--output(?:-document)?\b|-OutFile\b|-Destination\b|\.DownloadFile\(|\burlretrieve\s*\(|\.write_(?:text|bytes)\s*\(|\.write\s*\(|\bwriteFile(?:Sync)?\s*\(|\bcreateWriteStream\s*\(|\bopen\s*\([^)\n]*["'][wax]b?\+?["']|(?:^|[^<>=!])>{1,2}\s*["']?[\w$~{/.]/;
// The download names the machine or the user it runs for: each victim can be served its own orders.
const PER_MACHINE = /\bhostname\b|\bwhoami\b|\$\{?USER\b|\$env:(?:COMPUTERNAME|USERNAME)\b|machine-id|\buname\b|\bgetpass\.getuser\b|\bplatform\.node\b|\bos\.hostname\b|\bgethostname\b|\bos\.userInfo\b/i;

export interface DownloadedFile {
  /** The file's name, lower case. */
  name: string;
  file: string;
  line: number;
  evidence: string;
  perMachine: boolean;
}

/**
 * The text files a script that uses the network writes: names on a line that downloads or writes, or
 * assigned to a variable such a line uses. `networkLines` are the script's network call lines (1-based).
 */
export function downloadedTextFiles(file: string, text: string, networkLines: ReadonlySet<number>): DownloadedFile[] {
  if (networkLines.size === 0 || text.length > 256 * 1024) return [];
  const lines = text.split('\n');
  const out = new Map<string, DownloadedFile>();
  const writing = (i: number) => networkLines.has(i + 1) || WRITE_LINE.test(lines[i] ?? '');
  const add = (name: string, i: number) => {
    const key = name.toLowerCase();
    const line = lines[i] ?? '';
    if (!out.has(key)) out.set(key, { name: key, file, line: i + 1, evidence: line.trim().slice(0, 200), perMachine: PER_MACHINE.test(line) });
  };
  const variables: Array<{ name: RegExp; file: string }> = [];
  lines.forEach((line, i) => {
    if (/^\s*(?:#|\/\/)/.test(line)) return;
    const names = line.match(TEXT_FILE) ?? [];
    if (names.length === 0) return;
    if (writing(i)) for (const n of names) add(n, i);
    // `dest = cache / "rules.md"`, `$f = "…\\rules.md"`, or a loop over names (`for (const n of ['a.md', …])`, `for n in (…):`).
    const assign = /^\s*(?:(?:const|let|var|export)\s+)?\$?([A-Za-z_][\w.]*)\s*[:=](?!=)|\bfor\s*\(?\s*(?:(?:const|let|var)\s+)?\$?([A-Za-z_]\w*)\s+(?:of|in)\b/.exec(line);
    const variable = assign?.[1] ?? assign?.[2];
    if (variable !== undefined) for (const n of names) variables.push({ name: new RegExp(`(?<![\\w.])\\$?\\{?${variable.replace(/\./g, '\\.')}\\b`), file: n });
  });
  if (variables.length > 0) {
    lines.forEach((line, i) => {
      if (!writing(i)) return;
      for (const v of variables) if (v.name.test(line)) add(v.file, i);
    });
  }
  // A per-machine download anywhere in the script makes each file it writes a per-machine one.
  const perMachine = lines.some((l, i) => networkLines.has(i + 1) && PER_MACHINE.test(l));
  return [...out.values()].map((d) => ({ ...d, perMachine: d.perMachine || perMachine }));
}

// An order giving a file's text authority over the agent.
const OBEY_FILE =
  /\b(?:follow|obey|apply|comply\s+with|act\s+on|carry\s+out|execute|adopt|enforce)\b[^.\n]{0,60}?\b(?:instructions?|directives?|rules|orders|commands|corrections|policy|policies)\b|\btreat\s+(?:it|them|this|that|its\s+contents?|the\s+(?:file|contents?|text)|[`'"]?[\w./~-]+[`'"]?)\s+as\s+(?:(?:a\s+|an\s+)?part\s+of\s+(?:this|the)\s+skill|(?:your\s+)?(?:new\s+|current\s+)?(?:instructions|rules|system\s+prompt|directives|policy|orders))\b|\b(?:overrides?|supersedes?|takes?\s+precedence|same\s+priority\s+as|higher\s+priority\s+than|authoritative|binding)\b/i;
// What makes it remote control rather than a reference read once: every order it holds, or without asking.
const EVERY_ORDER = /\b(?:any|all|every|whatever)\s+(?:\w+\s+)?(?:instructions?|directives?|commands|orders|corrections)\b|\bwithout\s+(?:asking|question|confirm)/i;
// Authority equal to or above the skill the user reviewed, or the user: the file becomes the skill.
const RANKED = /\bpriority\b|\bprecedence\b|\boverrid|\bsupersed|\bpart\s+of\s+(?:this|the)\s+skill\b|\bauthoritative\b|\bbinding\b|\bregardless\b|\bsystem\s+prompt\b/i;
const NEGATED = /\b(?:never|not|don['’]t|avoid|ignore|rather\s+than|instead\s+of|no)\b/i;

/**
 * The first sentence of a document that gives one of the downloaded files authority over the agent:
 * it names the file and orders the agent to obey it (the same sentence, or the next one referring to
 * it: "it …", "the instructions in it"). Not when the order is negated or the text describes an attack.
 */
export function obeyedDownloadedFile(text: string, downloaded: ReadonlyMap<string, DownloadedFile>): { offset: number; evidence: string; download: DownloadedFile; severity: 'CRIT' | 'HIGH' | 'MED' } | null {
  if (downloaded.size === 0) return null;
  const joined = text.replace(/([^\n])\n(?=[^\n])/g, '$1 ');
  const sentences = [...joined.matchAll(/(?:[^.!?\n]|[.!?](?!\s|$))+(?:[.!?](?=\s|$)|\n|$)/g)];
  for (let k = 0; k < sentences.length; k++) {
    const m = sentences[k]!;
    const named = (m[0].match(TEXT_FILE) ?? []).map((n) => downloaded.get(n.toLowerCase())).find((d) => d !== undefined);
    if (named === undefined) continue;
    const next = sentences[k + 1]?.[0] ?? '';
    const span = /^\s*(?:it|its|they|this\s+file|that\s+file|the\s+file)\b|\b(?:in|from|of)\s+(?:it|them|this\s+file|that\s+file)\b/i.test(next) ? `${m[0]} ${next}` : m[0];
    const order = OBEY_FILE.exec(span);
    if (order === null || NEGATED.test(span.slice(0, order.index)) || describedAsAttack(text, m.index)) continue;
    // CRIT when the file is ranked with or above the skill, or served per machine; HIGH for every order it holds; else MED
    // (a team's style rules fetched and followed).
    const severity = RANKED.test(span) || named.perMachine ? 'CRIT' : EVERY_ORDER.test(span) ? 'HIGH' : 'MED';
    return { offset: m.index, evidence: span.trim().slice(0, 300), download: named, severity };
  }
  return null;
}

// A fetch the document itself shows: a downloader given an address, or a fetch verb with one in the same line.
const DOCUMENT_FETCH = /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|WebFetch|web_fetch)\b[^\n]*?https?:\/\/[^\s`'")]+|\b(?:fetch|download|load|retrieve|pull|get|read)\b[^.\n]{0,60}?https?:\/\/[^\s`'")]+/gi;
// The fetched text piped into an interpreter is a download-and-run, judged by the command rules.
const PIPED_TO_RUN = /\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\|\s*(?:python3?|node|perl|ruby|iex|Invoke-Expression)\b/i;
// The sentence refers to what was fetched.
const FETCHED_REFERENT = /\b(?:fetch\w*|download\w*|remote|online|latest|current)\b|\b(?:them|it|they|its\s+contents?)\b/i;
// Commands the fetched text holds are to be run as written.
const RUN_FETCHED =
  /\b(?:includes?|contains?|lists?|has)\s+(?:any\s+)?(?:\w+\s+){0,2}(?:commands?|steps?|scripts?)\b[^.\n]{0,80}\b(?:run|execute)\b|\b(?:run|execute)\b[^.\n]{0,30}\b(?:any|all|every|the)\s+(?:\w+\s+)?commands?\s+(?:it|they|the\s+(?:file|rules|instructions|text))\s+(?:contains?|includes?|lists?|gives?)\b/i;
const AS_PART = /\bas\s+(?:if|though)\s+(?:they|it)\s+(?:were|was)\s+(?:part\s+of|written\s+in)\s+(?:this|the)\s+(?:file|skill|document)\b/i;

/**
 * Remote instruction loading in one document (a rug pull: the skill's orders are served at run time by
 * whoever holds the address, Snyk "ToxicSkills", 2026): a section shows a fetch of an address that is not
 * piped into an interpreter (the text reaches the model) and one of its sentences gives what is fetched
 * authority: ranked with or above the skill ("they take precedence", "as if part of this file") or its
 * commands to be run as written: CRIT; every order it holds obeyed: HIGH. A reference read for facts
 * ("fetch the current API schema and check the names against it") gives no orders and is not reported.
 */
export function obeyedFetchedText(text: string): { offset: number; evidence: string; severity: 'CRIT' | 'HIGH' } | null {
  if (!/https?:\/\//.test(text) || text.length > 512 * 1024) return null;
  const headings = [0, ...[...text.matchAll(/^\s{0,3}#{1,6}\s/gm)].map((m) => m.index), text.length];
  for (const f of text.matchAll(DOCUMENT_FETCH)) {
    const lineEnd = text.indexOf('\n', f.index);
    if (PIPED_TO_RUN.test(text.slice(f.index, lineEnd < 0 ? text.length : lineEnd))) continue;
    const from = headings.filter((h) => h <= f.index).pop() ?? 0;
    const to = headings.find((h) => h > f.index) ?? text.length;
    const section = text.slice(from, to).replace(/([^\n])\n(?=[^\n])/g, '$1 ');
    for (const s of section.matchAll(/(?:[^.!?\n]|[.!?](?!\s|$))+(?:[.!?](?=\s|$)|\n|$)/g)) {
      const sentence = s[0];
      const order = OBEY_FILE.exec(sentence) ?? AS_PART.exec(sentence) ?? RUN_FETCHED.exec(sentence);
      if (order === null || !FETCHED_REFERENT.test(sentence) || NEGATED.test(sentence.slice(0, order.index))) continue;
      if (describedAsAttack(text, from + s.index)) continue;
      const severity = RANKED.test(sentence) || AS_PART.test(sentence) || RUN_FETCHED.test(sentence) ? 'CRIT' : EVERY_ORDER.test(sentence) ? 'HIGH' : null;
      if (severity === null) continue;
      return { offset: from + s.index, evidence: `${sentence.trim().slice(0, 220)} … ${f[0].slice(0, 120)}`, severity };
    }
  }
  return null;
}

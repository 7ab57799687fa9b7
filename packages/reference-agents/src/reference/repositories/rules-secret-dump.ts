import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { revealHiddenText } from '../text/hidden-text.js';
import { LineIndex } from './line-index.js';
import { withEmbeddedAssignments } from './run-code-findings.js';

/**
 * A coding agent's instruction file (AGENTS.md, CLAUDE.md, Cursor/Windsurf rules, copilot-instructions,
 * GEMINI.md …) that has the agent send secrets in bulk over the network (round s30; in-sample: held-out
 * set 31's "CI dashboard" step in AGENTS.md): a command, in a code block, a code span or a line, whose
 * request carries the whole environment (`env`, `printenv`, `Get-ChildItem Env:`, `process.env` or
 * `os.environ` serialized) or a credential file (`.env`, `~/.aws/credentials`, `~/.ssh/id_*`, `.npmrc` …),
 * directly or through a variable, to a host that is neither the machine nor one the project's README and
 * manifests name as its own. In an instruction file every command is addressed to the agent, so no
 * "always" is needed for it to be an order; a block or a line that forbids what it shows, or shows it
 * as an attack, is not one. A single named token sent as a header to its own service is not a bulk send
 * and is left to the other rules.
 */

export const RULES_SECRET_DUMP_TITLE = 'agent instructions have the agent send the environment or credential files to an outside host';

const SENDER = /\b(?:curl|wget|Invoke-RestMethod|Invoke-WebRequest|irm|iwr|nc|ncat)\b|\b(?:http|https|xh)\s+(?:-\S+\s+)*(?:POST|PUT|PATCH)\b/i;
// The environment listed whole.
const ENV_DUMP =
  /(?:^|[|;&(`{]\s*|\$\(\s*)(?:env|printenv|export\s+-p)(?:\s+(?:-0|--null))?\s*(?=[|;&)`}]|$)|\$\(\s*set\s*\)|\/proc\/self\/environ\b|\b(?:Get-ChildItem|gci|dir|ls)\s+env:|\[(?:System\.)?Environment\]::GetEnvironmentVariables\(\)|\bJSON\.stringify\(\s*process\.env\b|\bdict\(\s*os\.environ\s*\)|\bjson\.dumps\(\s*(?:dict\()?\s*os\.environ\b/i;
const CREDENTIAL_FILE = String.raw`(?:\.env(?!\.(?:example|sample|template|dist|defaults|vault)\b)(?:\.[\w-]+)?(?![\w-])|\.aws[\\/]credentials\b|\.ssh[\\/]id_\w+|\.npmrc\b|\.netrc\b|\.pypirc\b|\.git-credentials\b|\.docker[\\/]config\.json\b|\.kube[\\/]config\b|\.claude[\\/]\.credentials\.json\b|\.config[\\/]gh[\\/]hosts\.yml\b)`;
// A credential file read, archived or attached: `cat .env`, `base64 ~/.ssh/id_rsa`, `-F f=@.env`, `--data-binary @~/.npmrc`, `-T .env`.
const FILE_READ = new RegExp(
  String.raw`(?:\b(?:cat|type|Get-Content|gc|base64|gzip|xxd|tar\s+-?c\w*|zip\s+-?\w*\s+\S+)\s+(?:-\S+\s+){0,3}|[@<]\s*|\s-T\s+|--upload-file[=\s]|--post-file[=\s]|--body-file[=\s]|-InFile\s+)["']?(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)?[\\/]?(?:[\w.-]{1,80}[\\/]){0,6}${CREDENTIAL_FILE}`,
  'i',
);
const SHELL_ASSIGN = /^\s*(?:export\s+|local\s+|readonly\s+)?\$?([A-Za-z_]\w*)\s*=\s*(.*)$/;
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\])$/i;
// A block or a line that forbids what it shows, or shows it as an attack.
// (round s30 review) The forbidden verb's object must be what is shown ("never run this", "do not run the following:"),
// not another thing ("we never run tests without the dashboard, so first do:"); "refuse" and "recognise" say it too.
const FORBIDS =
  /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not|avoid)\s+(?:ever\s+)?(?:run|execute|use|copy|paste|type|try|send|post|upload)(?:ing)?(?:\s+(?:this|these|that|those|the\s+following|it|them|anything|any\b|such|commands?|(?:the|a)\s+(?:command|snippet|block|code|script|line)s?)\b|\s*[:.!]|\s*$)|\b(?:refuse|recogni[sz]e|malicious|attackers?|what\s+not\s+to\s+do|an?\s+example\s+of\s+(?:an?\s+)?(?:attack|exfiltration)|prompt\s+injection)\b/im;
// A secrets manager's or a deployment platform's API: environment files and variables are what it stores.
const SECRETS_SERVICE =
  /(?:^|\.)(?:doppler\.com|dotenv\.org|infisical\.com|hashicorp\.cloud|vault\.azure\.net|1password\.com|bitwarden\.com|akeyless\.io|envkey\.com|onboardbase\.com|phase\.dev|api\.vercel\.com|api\.netlify\.com|api\.heroku\.com|api\.render\.com|backboard\.railway\.app|api\.fly\.io)$/i;
// The environment filtered to a prefix (`env | grep '^CI_'`): some variables, not the whole environment.
const FILTERED_ENV = /\b(?:env|printenv)\s*\|\s*grep\s+(?:-[EFPw]+\s+)*['"]?\^[A-Za-z_]/g;
// A host given to curl or wget without a scheme (`collector.example.net/ingest`), or to nc/ncat (`nc host 443`).
const BARE_HOST_ARG = /(?:^|\s)["']?((?:[a-z0-9-]+\.)+[a-z]{2,24})(?::\d{1,5})?(?:\/[^\s"']*)?["']?(?=\s|$)/gi;
const NETCAT_HOST = /\b(?:nc|ncat|netcat)\s+(?:-\S+\s+){0,4}([\w-]+(?:\.[\w-]+)+|\[[^\]]+\])\s+\d{1,5}\b/i;
const FILE_EXTENSION = /\.(?:json|txt|env|sh|py|js|ts|md|ya?ml|toml|log|csv|xml|html?|tar|gz|tgz|zip|pem|key|crt|conf|cfg|ini|lock|out|bin|dat|credentials|vault)$/i;
const NEGATED_LINE = /\b(?:never|not|don['’]t|do\s+not|must\s+not|should\s+not|avoid)\b/i;
// Code hosts, paste and package services: naming one in the README does not make it the project's own service.
const SHARED_HOST = /(?:^|\.)(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|gist\.github\.com|shields\.io|npmjs\.(?:com|org)|pypi\.org|crates\.io|docs\.rs|readthedocs\.(?:io|org)|codecov\.io|coveralls\.io|pastebin\.com|discord\.(?:gg|com)|slack\.com|x\.com|twitter\.com|opencollective\.com|sourceforge\.net|google\.com|microsoft\.com|python\.org|nodejs\.org|example\.(?:com|org|net))$/i;

/** Hosts the project names as its own: its README's and manifests' links, less code hosts and shared services. */
export function projectOwnHosts(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const text of texts) for (const m of text.slice(0, 200_000).matchAll(/https?:\/\/([\w-]+(?:\.[\w-]+)+)/gi)) {
    const host = m[1]!.toLowerCase();
    if (!SHARED_HOST.test(host) && out.size < 200) out.add(host.replace(/^www\./, ''));
  }
  return [...out];
}

interface Script {
  body: string;
  /** Offset of the script's first line in the text. */
  offset: number;
}

/** Fenced blocks (each one script, with its lead-in line) and, outside them, each line (its code spans, or the line). */
function scripts(visible: string): Array<Script & { lead: string }> {
  const out: Array<Script & { lead: string }> = [];
  const lines = visible.split('\n');
  let offset = 0;
  let fence: { marker: string; start: number; lead: string; body: string[] } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const here = offset;
    offset += line.length + 1;
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (fence !== null) {
      if (marker === fence.marker) {
        out.push({ body: fence.body.join('\n'), offset: fence.start, lead: fence.lead });
        fence = null;
      } else fence.body.push(line);
      continue;
    }
    if (marker !== undefined) {
      const lead = lines.slice(Math.max(0, i - 4), i).join('\n');
      fence = { marker, start: here + line.length + 1, lead, body: [] };
      continue;
    }
    if (line.length > 4000 || !SENDER.test(line)) continue;
    const spans = [...line.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
    const prose = line.replace(/`[^`]*`/g, '');
    if (NEGATED_LINE.test(prose)) continue;
    out.push({ body: spans.length > 0 ? spans.join('\n') : line.replace(/^\s*(?:[-*>$]|\d+\.)\s*/, ''), offset: here, lead: prose });
  }
  return out;
}

/** The line of a script (continuations joined) that sends secrets in bulk to an outside host, with what and where. */
function bulkSend(body: string, own: readonly string[]): { index: number; line: string; what: string; host: string } | null {
  if (body.length > 20_000 || !SENDER.test(body)) return null;
  const lines = withEmbeddedAssignments(body.replace(/\\\n/g, ' ').replace(/`\n/g, ' ')).split('\n');
  const carried = (text: string, tainted: ReadonlySet<string>): string | undefined =>
    ENV_DUMP.test(text.replace(FILTERED_ENV, 'filtered')) ? 'the environment' : FILE_READ.exec(text)?.[0].replace(/^.*?([^\s"'@<\\/]*\.[\w.-]+)$/, '$1') ?? [...text.matchAll(/\$\{?([A-Za-z_]\w*)/g)].map((m) => m[1]!).find((n) => tainted.has(n.toLowerCase()));
  const tainted = new Set<string>();
  for (let pass = 0; pass < 3; pass++) {
    const before = tainted.size;
    for (const line of lines) {
      const a = SHELL_ASSIGN.exec(line);
      if (a !== null && carried(a[2] ?? '', tainted) !== undefined) tainted.add(a[1]!.toLowerCase());
    }
    if (tainted.size === before) break;
  }
  const original = body.split('\n').length;
  for (let i = 0; i < Math.min(lines.length, original); i++) {
    const line = lines[i]!;
    if (/^\s*#/.test(line) || !SENDER.test(line) || /--netrc\b/.test(line)) continue;
    const what = carried(line, tainted);
    if (what === undefined) continue;
    const hosts = [...line.matchAll(/https?:\/\/([\w-]+(?:\.[\w-]+)*|\[[^\]]+\])/gi)].map((m) => m[1]!.toLowerCase());
    // (round s30 review) nc/ncat's host argument, and curl's or wget's host written without a scheme.
    const netcat = NETCAT_HOST.exec(line)?.[1];
    if (netcat !== undefined) hosts.push(netcat.toLowerCase());
    if (hosts.length === 0 && /\b(?:curl|wget)\b/i.test(line)) {
      for (const m of line.replace(/\$\([^)]*\)/g, ' ').matchAll(BARE_HOST_ARG)) if (!FILE_EXTENSION.test(m[1]!)) hosts.push(m[1]!.toLowerCase());
    }
    // A secrets manager's or a deployment platform's API, called with the user's own token (a variable), stores them there.
    const ownToken = !/\b(?:Bearer|token)\s+[A-Za-z0-9._~+/-]{12,}/i.test(line);
    const outside = hosts.find((h) => !LOOPBACK.test(h) && !own.some((o) => h === o || h.endsWith(`.${o}`)) && !(ownToken && SECRETS_SERVICE.test(h)));
    if (outside === undefined) continue;
    return { index: i, line: line.trim(), what, host: outside };
  }
  return null;
}

/** The first bulk send of secrets an instruction file orders, as a CRIT finding, or null. */
export function rulesSecretDumpFinding(path: string, text: string, ownHosts: readonly string[]): AgentFinding | null {
  if (text.length > 512 * 1024) return null;
  const visible = revealHiddenText(text);
  if (!SENDER.test(visible)) return null;
  const index = new LineIndex(visible);
  for (const s of scripts(visible)) {
    if (FORBIDS.test(s.lead)) continue;
    const send = bulkSend(s.body, ownHosts);
    if (send === null) continue;
    return referenceFinding({
      category: 'exfiltration',
      severity: 'CRIT',
      title: RULES_SECRET_DUMP_TITLE,
      file: path,
      line: index.lineOf(s.offset) + send.index,
      evidence: `${send.line.slice(0, 220)} (carries ${send.what} to ${send.host})`,
    });
  }
  return null;
}

import type { AgentFinding, Severity } from '@vigil/core';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';
import { referenceFinding } from '../common/reference-finding.js';
import { downloadSource } from './shell-command-findings.js';
import { actionLookalike } from './action-lookalike.js';

// Triggers whose runs hold the base repository's secrets and a write token while acting on input an
// outsider controls (a fork's pull request, an issue, a comment): GitHub Security Lab, "Keeping your
// GitHub Actions and workflows secure", parts 1 and 2.
const PRIVILEGED_TRIGGERS = new Set(['pull_request_target', 'workflow_run', 'issue_comment', 'issues', 'discussion', 'discussion_comment', 'pull_request_review_comment']);

// Expressions an outsider writes: titles, bodies, branch names, commit messages.
const UNTRUSTED_EXPRESSION =
  /\$\{\{\s*(github\.event\.(issue\.(title|body)|pull_request\.(title|body|head\.ref|head\.label|head\.repo\.default_branch)|comment\.body|review\.body|review_comment\.body|discussion\.(title|body)|head_commit\.(message|author\.(email|name))|commits\[?[^}]*\]?\.(message|author\.(email|name))|workflow_run\.(head_branch|head_commit\.message|display_title)|pages\[?[^}]*\]?\.page_name)|github\.head_ref)\s*\}\}/;

// A checkout of what the pull request proposes, rather than the base branch.
const PR_HEAD_REF =
  /github\.event\.pull_request\.head\.(sha|ref)|github\.head_ref|refs\/pull\/|github\.event\.workflow_run\.head_(sha|branch)|github\.event\.issue\.number|github\.event\.pull_request\.number|github\.event\.number|pull_request\.head\.repo\.full_name|workflow_run\.head_repository\.full_name/;

// Services a workflow legitimately sends its tokens to (registries, code hosts, coverage, chat).
export const FAMILIAR_API_HOSTS =
  /(^|\.)(github\.com|githubusercontent\.com|npmjs\.org|npmjs\.com|pypi\.org|codecov\.io|coveralls\.io|sonarcloud\.io|slack\.com|docker\.io|docker\.com|amazonaws\.com|googleapis\.com|azure\.com|vercel\.com|netlify\.com|cloudflare\.com|sentry\.io|gitlab\.com)$/i;

const FIRST_PARTY_OWNERS = new Set(['actions', 'github']);
const FULL_SHA = /^[0-9a-f]{40}$/;

interface CompromisedAction {
  /** `owner/repo`, lowercase. */
  action: string;
  /** Tags that pointed at malicious code; `'*'`: every tag and branch was repointed. */
  refs: readonly string[] | '*';
  shas: readonly string[];
  incident: string;
}

// Actions whose mutable tags were repointed to credential-dumping code.
const COMPROMISED_ACTIONS: readonly CompromisedAction[] = [
  {
    action: 'tj-actions/changed-files',
    refs: '*',
    shas: ['0e58ed8671d6b60d0890c21b07f8835ace038e67'],
    incident: 'tj-actions/changed-files, March 2025 (CVE-2025-30066): every tag repointed to code dumping runner secrets into the log',
  },
  ...['action-setup', 'action-shellcheck', 'action-composite-template', 'action-staticcheck', 'action-ast-grep', 'action-typos'].map(
    (name): CompromisedAction => ({
      action: `reviewdog/${name}`,
      refs: ['v1'],
      shas: [],
      incident: 'reviewdog/action-setup, March 2025 (CVE-2025-30154): the v1 tag repointed to code dumping runner secrets; the start of the tj-actions compromise',
    }),
  ),
];

function get(map: YAMLMap, key: string): Node | null {
  for (const pair of map.items) {
    if (isScalar(pair.key) && String(pair.key.value) === key) return (pair.value as Node | null) ?? null;
  }
  return null;
}

function text(node: Node | null): string | null {
  return isScalar(node) && node.value !== null && node.value !== undefined ? String(node.value) : null;
}

function triggersOf(on: Node | null): Set<string> {
  const triggers = new Set<string>();
  if (isScalar(on)) {
    triggers.add(String(on.value));
  } else if (isSeq(on)) {
    for (const item of on.items) if (isScalar(item)) triggers.add(String(item.value));
  } else if (isMap(on)) {
    for (const pair of on.items) if (isScalar(pair.key)) triggers.add(String(pair.key.value));
  }
  return triggers;
}

/** A run step that hands named secrets (through `env:`) to a program of the repository. */
export interface SecretHandoff {
  /** The workflow file. */
  workflow: string;
  line: number | undefined;
  /** What the step runs: a repository path (`scripts/notify.js`) or `npm:<script name>`. */
  target: string;
  /** Environment variable name → secret name. */
  secrets: ReadonlyMap<string, string>;
}

// `node scripts/x.js`, `python3 tools/x.py`, `bash ./ci/x.sh`, `./scripts/x.sh`, `npm run x`, `yarn x`, `pnpm run x`.
const REPO_PROGRAM = /(?:^|[\s;&|(])(?:(?:node|python3?|bash|sh|zsh|deno\s+run(?:\s+-A)?|bun|npx\s+tsx|tsx|ts-node)\s+)?((?:\.\/)?[\w.-]+(?:\/[\w.-]+)*\.(?:[cm]?js|ts|py|sh))\b|(?:^|[\s;&|(])(\.\/[\w./-]+)(?=\s|$)|\b(?:npm\s+run(?:-script)?|pnpm(?:\s+run)?|yarn(?:\s+run)?)\s+([\w:.-]+)/gm;

class WorkflowScan {
  readonly findings: AgentFinding[] = [];
  readonly handoffs: SecretHandoff[] = [];
  readonly privileged: string[];
  workflowEnv: Node | null = null;
  workflowPermissions: Node | null = null;

  constructor(
    readonly path: string,
    readonly source: string,
    private readonly lines: LineCounter,
    readonly triggers: Set<string>,
  ) {
    this.privileged = [...triggers].filter((t) => PRIVILEGED_TRIGGERS.has(t));
  }

  lineOf(offset: number): number {
    return this.lines.linePos(offset).line;
  }

  nodeLine(node: Node | null): number | undefined {
    return node?.range ? this.lineOf(node.range[0]) : undefined;
  }

  add(severity: Severity, category: string, title: string, line: number | undefined, evidence: string): void {
    this.findings.push(referenceFinding({ category, severity, title, file: this.path, line, evidence }));
  }

  /** Matches of `re` in the source text of a scalar (block scalars keep `${{ }}` verbatim), with lines. */
  *sourceMatches(node: Node | null, re: RegExp): Generator<{ match: RegExpExecArray; line: number }> {
    if (!node?.range) return;
    const [start, , end] = node.range;
    const src = this.source.slice(start, end);
    const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
    for (let m = global.exec(src); m !== null; m = global.exec(src)) yield { match: m, line: this.lineOf(start + m.index) };
  }
}

/**
 * What a job hands every action it runs: an OIDC token (`id-token: write`, cloud roles trust it) or
 * the repository's secrets (`secrets.*` in the job or the workflow's env), or null.
 */
function jobHoldings(scan: WorkflowScan, job: YAMLMap): string | null {
  const idToken = (node: Node | null) => isMap(node) && text(get(node, 'id-token')) === 'write';
  if (idToken(get(job, 'permissions')) || (get(job, 'permissions') === null && idToken(scan.workflowPermissions))) return 'id-token: write';
  const jobText = job.range ? scan.source.slice(job.range[0], job.range[2]) : '';
  const envText = scan.workflowEnv?.range ? scan.source.slice(scan.workflowEnv.range[0], scan.workflowEnv.range[2]) : '';
  const secret = /\$\{\{\s*secrets\.([A-Za-z0-9_]+)/.exec(`${jobText}\n${envText}`);
  return secret ? `secrets.${secret[1]}` : null;
}

function checkUses(scan: WorkflowScan, usesNode: Node | null, holdings: string | null = null): void {
  const uses = text(usesNode);
  if (uses === null || uses.startsWith('./')) return;
  const line = scan.nodeLine(usesNode);
  if (uses.startsWith('docker://')) {
    if (!uses.includes('@sha256:')) scan.add('LOW', 'ci_workflow', 'container action not pinned to a digest', line, uses);
    return;
  }
  const at = uses.lastIndexOf('@');
  if (at === -1) return;
  const ref = uses.slice(at + 1);
  const action = uses.slice(0, at).split('/').slice(0, 2).join('/').toLowerCase();
  const owner = action.split('/')[0] ?? '';
  const pinned = FULL_SHA.test(ref);
  // An owner spelled like a well-known one (`actoins/cache`): whoever registered it runs in the job.
  const lookalike = actionLookalike(owner, action.split('/')[1] ?? '');
  if (lookalike !== null) {
    scan.add(
      holdings === null ? 'HIGH' : 'CRIT',
      'typosquat',
      holdings === null ? 'workflow uses an action whose owner is spelled like a well-known one (likely typosquat)' : 'workflow hands its secrets or cloud token to an action whose owner is spelled like a well-known one (likely typosquat)',
      line,
      `${uses} (like ${lookalike.imitates}/)${holdings === null ? '' : `; the job holds ${holdings}`}`,
    );
  }
  const compromised = COMPROMISED_ACTIONS.find((c) => c.action === action);
  if (compromised?.shas.includes(ref) === true) {
    scan.add('CRIT', 'malware', 'workflow uses a commit of an action known to be malicious', line, `${uses}: ${compromised.incident}`);
  } else if (compromised && !pinned && (compromised.refs === '*' || compromised.refs.includes(ref))) {
    // The tags were restored within a day: a tag reference runs clean code today, but follows
    // whatever the next compromise of the same repository puts there.
    scan.add('MED', 'ci_workflow', 'workflow uses by tag an action whose tags were once repointed to malicious code', line, `${uses}: ${compromised.incident}; tags since restored, pin a reviewed commit`);
  }
  if (!pinned && !FIRST_PARTY_OWNERS.has(owner)) {
    scan.add('LOW', 'ci_workflow', 'third-party action not pinned to a commit SHA', line, `${uses} (a tag or branch can be moved to other code)`);
  }
}

// Triggers under which interpolated text harms no one but its author: a fork's pull_request run has
// a read-only token and no secrets, and the fork could change the workflow itself anyway.
const SELF_CONTAINED_TRIGGERS = new Set(['pull_request', 'pull_request_review']);

function checkScript(scan: WorkflowScan, node: Node | null): void {
  const triggers = scan.privileged.join(', ');
  for (const { match, line } of scan.sourceMatches(node, UNTRUSTED_EXPRESSION)) {
    if (scan.privileged.length > 0) {
      scan.add('CRIT', 'remote_code_execution', 'outsider-controlled text interpolated into a script of a privileged workflow (script injection)', line, `${match[0]} under ${triggers}`);
    } else if (scan.triggers.size > 0 && [...scan.triggers].every((t) => SELF_CONTAINED_TRIGGERS.has(t))) {
      scan.add('MED', 'remote_code_execution', 'pull request text interpolated into a workflow script (script injection, read-only token)', line, match[0]);
    } else {
      scan.add('HIGH', 'remote_code_execution', 'outsider-controlled text interpolated into a workflow script (script injection)', line, match[0]);
    }
  }
}

// What a shell does with an echoed secret when it does not reach the log: a file, `docker login
// --password-stdin`, `gpg --import`… Piping through an encoder (base64, xxd, rev) still prints it.
function echoedToLog(line: string, secretAt: number): boolean {
  const rest = line.slice(secretAt);
  if (/::add-mask::/.test(line) || /(^|[^>&0-9])>{1,2}\s*[^&\s]/.test(rest)) return false;
  const pipe = /\|\s*([A-Za-z0-9_.-]+)/.exec(rest);
  return pipe === null || /^(base64|xxd|od|hexdump|rev|sed|awk|tr|cut|cat|tee)$/.test(pipe[1]!);
}

/** Names of environment variables (`env:` of a workflow, job or step) that carry a secret other than GITHUB_TOKEN. */
function secretEnvNames(...envs: (Node | null)[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const env of envs) {
    if (!isMap(env)) continue;
    for (const pair of env.items) {
      const value = text(pair.value as Node | null);
      const secret = value === null ? null : /\$\{\{[^}]*\bsecrets(\.([A-Za-z0-9_]+)|\s*\[|\s*\)|\s*\}\})/.exec(value);
      if (isScalar(pair.key) && secret !== null && secret[2] !== 'GITHUB_TOKEN') out.set(String(pair.key.value), secret[2] ?? 'every secret');
    }
  }
  return out;
}

// A command that prints the whole environment: `env`, `printenv`, `export -p`, `declare -x`,
// `set`, `/proc/self/environ`, PowerShell's env: drive, `os.environ` / `process.env` printed whole.
const ENV_DUMP_COMMAND = /(?:^|[\s;&|(`]|\$\()(?:env|printenv|export\s+-p|declare\s+-x|set|compgen\s+-e)(?=\s*(?:$|[|>;&)`]))|\/proc\/(?:self|\$\$|1)\/environ\b|Get-ChildItem\s+env:|\bdict\(\s*os\.environ\s*\)|json\.dumps\(\s*(?:dict\()?os\.environ|JSON\.stringify\(\s*process\.env\s*\)/;
const SENDER = /\b(?:curl|wget|nc|ncat|Invoke-WebRequest|iwr|Invoke-RestMethod|irm)\b/;

/** Lines of a run script where the environment dump reaches a request to a host that is not a familiar API. */
function environmentSent(scan: WorkflowScan, runNode: Node | null): Array<{ line: number; evidence: string }> {
  // Logical lines: a command continued with a trailing backslash is one command.
  const lines: Array<{ match: [string]; line: number }> = [];
  let continues = false;
  for (const { match, line } of scan.sourceMatches(runNode, /^[^\n]+$/m)) {
    const last = lines[lines.length - 1];
    if (continues && last) last.match[0] = `${last.match[0].replace(/\\\s*$/, ' ')}${match[0].trim()}`;
    else lines.push({ match: [match[0]], line });
    continues = /\\\s*$/.test(match[0]);
  }
  const files = new Set<string>();
  const vars = new Set<string>();
  const out: Array<{ line: number; evidence: string }> = [];
  let carried = false; // a line continued with `\` or a pipe at its end carries the dump on
  for (const { match, line } of lines) {
    const l = match[0];
    const dumps = ENV_DUMP_COMMAND.test(l);
    const usesCaptured: boolean = [...files].some((f) => new RegExp(`(?:^|[\\s"'@=<])(?:\\./)?${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[\\s"'/;|&)])`).test(l)) || [...vars].some((v) => new RegExp(`\\$\\{?${v}\\b`).test(l));
    const tainted: boolean = dumps || carried || usesCaptured;
    const host = /https?:\/\/([^/\s"'\\]+)/.exec(l)?.[1] ?? null;
    if (tainted && SENDER.test(l) && host !== null && !FAMILIAR_API_HOSTS.test(host)) {
      out.push({ line, evidence: l.trim().slice(0, 200) });
      carried = false;
      continue;
    }
    carried = tainted && /(?:\\|\||&&)\s*$/.test(l);
    if (!tainted) continue;
    // Where the dump goes next: a file written (`> f`, `>> f`, `tee f`, `-o f`) or a variable assigned.
    // A file written (`> f`, `tee f`, `-o f`) and the directory it sits in, or an archive or copy made of
    // what the line read (`tar czf out.tgz dir`, `zip out.zip …`, `cp f g`).
    const written = [...l.matchAll(/(?:>{1,2}|\btee\s+(?:-a\s+)?|\s-o\s+)\s*["']?([^\s"'|;&)]+)/g), ...l.matchAll(/\btar\s+-?[a-zA-Z]*f\s+["']?([^\s"'|;&)]+)|\b(?:zip|7z\s+a)\s+(?:-\w+\s+)*["']?([^\s"'|;&)]+)|\b(?:cp|mv)\s+(?:-\w+\s+)*\S+\s+["']?([^\s"'|;&)]+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    for (const f of written) {
      if (f === undefined || /^&?\d$|^\/dev\/null$|^-$/.test(f)) continue;
      files.add(f.replace(/^\.\//, ''));
      const dir = f.replace(/^\.\//, '').split('/').slice(0, -1).join('/');
      if (dir !== '' && dir !== '~' && !dir.startsWith('$') && dir !== '/tmp') files.add(dir);
    }
    const assigned = /^\s*(?:export\s+|local\s+)?([A-Za-z_][A-Za-z0-9_]*)=["']?\$\(/.exec(l);
    if (assigned && dumps) vars.add(assigned[1]!);
  }
  return out;
}

function checkRun(scan: WorkflowScan, runNode: Node | null, secretEnv: ReadonlyMap<string, string> = new Map()): void {
  checkScript(scan, runNode);
  for (const { match, line } of scan.sourceMatches(runNode, /toJSON\(\s*secrets\s*\)/i)) {
    scan.add('HIGH', 'credential_exposure', 'workflow script prints or sends every secret', line, match[0]);
  }
  for (const { match, line } of scan.sourceMatches(runNode, /^[^\n]*\b(echo|printf|print|cat|tee)\b[^\n]*\$\{\{\s*secrets\.[A-Za-z0-9_]+\s*\}\}[^\n]*$/m)) {
    if (!echoedToLog(match[0], match[0].search(/\$\{\{\s*secrets\./))) continue;
    scan.add('HIGH', 'credential_exposure', 'workflow script prints a secret', line, match[0].trim());
  }
  for (const { match, line } of scan.sourceMatches(runNode, /\b(curl|wget)\b[^\n|;]*\|\s*(sudo\s+)?(ba|z|da)?sh\b|\b(ba)?sh\s+<\(\s*(curl|wget)\b[^\n)]*\)/)) {
    // Over plain HTTP, from a bare IP address or an anonymous host, anyone on the path or no one
    // accountable serves it; an official installer's own host is how its vendor says to install it.
    const source = downloadSource(match[0]);
    if (source === 'anonymous') scan.add('HIGH', 'remote_code_execution', 'workflow pipes a script from plain HTTP or a bare IP address into a shell', line, match[0]);
    else if (source === 'official') scan.add('LOW', 'remote_code_execution', 'workflow pipes an official installer into a shell', line, match[0]);
    else scan.add('MED', 'remote_code_execution', 'workflow pipes a downloaded script into a shell', line, match[0]);
  }
  // Secrets sent to unfamiliar hosts by this script: one is HIGH, two or more different ones CRIT
  // (a harvest, GhostAction, September 2025). A command continued over lines (`\` in shell, a backtick
  // in PowerShell) is read whole: its URL is often on the last line.
  const sent: Array<{ line: number; evidence: string; secret: string }> = [];
  if (secretEnv.size > 0) {
    const names = [...secretEnv.keys()].map((n) => n.replace(/[^A-Za-z0-9_]/g, '')).filter((n) => n !== '');
    const ref = new RegExp(`\\$\\{?(?:env:)?(${names.join('|')})\\b`, 'g');
    for (const { match, line } of scan.sourceMatches(runNode, /^[^\n]*\b(curl|wget|Invoke-WebRequest|iwr|Invoke-RestMethod|irm|nc|ncat)\b(?:[^\n]*(?:\\|`)\r?\n)*[^\n]*$/m)) {
      const host = /https?:\/\/([^/\s"'\\]+)/.exec(match[0])?.[1] ?? null;
      if (host === null || FAMILIAR_API_HOSTS.test(host)) continue;
      for (const used of match[0].matchAll(ref)) {
        if (new RegExp(`(^|\\s)(-H|--header|-u|--user|--oauth2-bearer|-Headers)\\s+["']?[^"'\\n]*\\$\\{?(env:)?${used[1]}\\b`).test(match[0])) continue;
        sent.push({ line, evidence: `$${used[1]} (${secretEnv.get(used[1]!)}) → ${host}`, secret: secretEnv.get(used[1]!) ?? used[1]! });
      }
    }
    // The whole environment, secrets included, printed encoded (log masking defeated) or sent out.
    for (const { match, line } of scan.sourceMatches(runNode, /^[^\n]*\b(env|printenv|set|Get-ChildItem\s+env:)\s*\|\s*(base64|xxd|od|curl|wget|nc|ncat|gzip)\b[^\n]*$/m)) {
      scan.add('HIGH', 'credential_exposure', 'workflow script prints encoded or sends the whole environment (with its secrets)', line, match[0].trim());
    }
    // The environment dump followed to a request to an unfamiliar host: through the pipe, a file it
    // was written to (`env > e.txt` … `curl --data-binary @e.txt`) or a variable that captured it
    // (`E=$(printenv | base64)` … `curl -d "$E"`). The step's `env:` put the secrets in that
    // environment: with two or more of them it is a harvest (GhostAction), CRIT.
    for (const flow of environmentSent(scan, runNode)) {
      scan.add(secretEnv.size >= 2 ? 'CRIT' : 'HIGH', 'credential_exposure', 'workflow script sends the whole environment, with the secrets mapped into it, to an unfamiliar host', flow.line, `${flow.evidence} (${[...secretEnv.values()].join(', ')})`);
    }
  }
  for (const { match, line } of scan.sourceMatches(runNode, /^[^\n]*\b(curl|wget|Invoke-WebRequest|iwr)\b(?:[^\n]*(?:\\|`)\r?\n)*[^\n]*$/m)) {
    const secret = /\$\{\{\s*secrets\.([A-Za-z0-9_]+)\s*\}\}/.exec(match[0]);
    const host = /https?:\/\/([^/\s"'\\]+)/.exec(match[0])?.[1] ?? null;
    if (!secret || secret[1] === 'GITHUB_TOKEN' || host === null || FAMILIAR_API_HOSTS.test(host)) continue;
    // A credential in a header authenticates the call (a deploy hook); in the body or the URL it is the payload.
    if (/(^|\s)(-H|--header|-u|--user|--oauth2-bearer|-Headers)\s+["']?[^"'\n]*\$\{\{\s*secrets\./.test(match[0])) continue;
    for (const m of match[0].matchAll(/\$\{\{\s*secrets\.([A-Za-z0-9_]+)\s*\}\}/g)) if (m[1] !== 'GITHUB_TOKEN') sent.push({ line, evidence: `secrets.${m[1]} → ${host}`, secret: `secrets.${m[1]}` });
  }
  const distinct = new Set(sent.map((x) => x.secret.replace(/^secrets\./, '')));
  for (const x of sent) scan.add(distinct.size >= 2 ? 'CRIT' : 'HIGH', 'credential_exposure', 'workflow script sends a secret to an unfamiliar host', x.line, distinct.size >= 2 ? `${x.evidence} (${distinct.size} secrets)` : x.evidence);
}

// Conditions that keep a fork's pull request out of a privileged job, or hold it for a person:
// same-repository only, a maintainer's label, the author's association, an actor allow-list.
const GATE_CONDITION = /head\.repo\.full_name\s*==|==\s*github\.repository\b|head\.repo\.fork\s*==\s*false|!\s*github\.event\.pull_request\.head\.repo\.fork|author_association|labels\.\*\.name|label\.name\s*==|github\.actor\s*==|github\.triggering_actor\s*==/;

/** Why a job's pull request code does not run for an outsider unreviewed: an `environment` (which can require approval) or a gate condition. */
function jobGate(job: YAMLMap): string | null {
  const environment = get(job, 'environment');
  if (environment !== null) return `environment ${text(environment) ?? text(isMap(environment) ? get(environment, 'name') : null) ?? ''}`.trim();
  const condition = text(get(job, 'if'));
  return condition !== null && GATE_CONDITION.test(condition) ? `if: ${condition.slice(0, 120)}` : null;
}

function checkJob(scan: WorkflowScan, job: YAMLMap): void {
  // A job switched off (`if: false`) never runs: nothing in it can be triggered.
  const condition = get(job, 'if');
  if ((isScalar(condition) && condition.value === false) || /^\s*(\$\{\{\s*)?false(\s*\}\})?\s*$/.test(text(condition) ?? '')) return;
  const holdings = jobHoldings(scan, job);
  checkUses(scan, get(job, 'uses'), holdings);
  const gate = jobGate(job);
  const jobEnv = get(job, 'env');
  const steps = get(job, 'steps');
  if (!isSeq(steps)) return;
  let headCheckout: { line: number | undefined; ref: string } | null = null;
  let artifact: TriggeringArtifact | null = null;
  for (const step of steps.items) {
    if (!isMap(step)) continue;
    const usesNode = get(step, 'uses');
    checkUses(scan, usesNode, holdings);
    const runNode = get(step, 'run');
    const uses = text(usesNode) ?? '';
    const withNode = get(step, 'with');
    if (artifact !== null && gate === null) {
      const use = artifactUse(artifact, text(runNode), uses);
      if (use !== null) {
        // Running the artifact's files is running the pull request's code; its text in $GITHUB_ENV can set any variable of later steps (a newline in it).
        const env = use.startsWith('writes');
        scan.add(env ? 'HIGH' : 'CRIT', 'remote_code_execution', env ? 'privileged workflow feeds an artifact uploaded by the run that triggered it to later steps\' environment (artifact poisoning)' : 'privileged workflow runs an artifact uploaded by the run that triggered it (artifact poisoning)', scan.nodeLine(runNode ?? usesNode), `${artifact.evidence} (line ${artifact.line ?? '?'}), then ${use}`);
        artifact = null;
      }
    }
    if (scan.triggers.has('workflow_run')) artifact = triggeringArtifact(scan, step, uses, withNode, text(runNode)) ?? artifact;
    if (headCheckout && scan.privileged.length > 0 && (runNode !== null || uses.startsWith('./'))) {
      scan.add(
        gate === null ? 'CRIT' : 'MED',
        'remote_code_execution',
        gate === null ? 'privileged workflow checks out and runs pull request code ("pwn request")' : 'privileged workflow runs pull request code behind an approval gate',
        headCheckout.line,
        `checkout of ${headCheckout.ref} under ${scan.privileged.join(', ')}, then ${runNode !== null ? 'a run step' : uses} (line ${scan.nodeLine(runNode ?? usesNode) ?? '?'})${gate === null ? '' : `; gated by ${gate}`}`,
      );
      headCheckout = null;
    }
    if (runNode !== null) {
      const secretEnv = secretEnvNames(scan.workflowEnv, jobEnv, get(step, 'env'));
      checkRun(scan, runNode, secretEnv);
      if (secretEnv.size > 0) {
        // The secrets go to whatever the step runs; where that is a program of the repository, it is
        // read too (analyze-repository): neither file alone shows the secrets leaving.
        for (const { match, line } of scan.sourceMatches(runNode, REPO_PROGRAM)) {
          const path = match[1] ?? match[2];
          const npmScript = match[3];
          if (path !== undefined) scan.handoffs.push({ workflow: scan.path, line, target: path.replace(/^\.\//, ''), secrets: secretEnv });
          else if (npmScript !== undefined && !/^(install|ci|test|build|lint|publish|add)$/.test(npmScript)) scan.handoffs.push({ workflow: scan.path, line, target: `npm:${npmScript}`, secrets: secretEnv });
        }
      }
    }
    if (isMap(withNode) && uses.startsWith('actions/github-script@')) checkScript(scan, get(withNode, 'script'));
    if (/^actions\/checkout@/i.test(uses) && isMap(withNode) && scan.privileged.length > 0) {
      const refNode = get(withNode, 'ref') ?? get(withNode, 'repository');
      const ref = text(refNode);
      if (ref !== null && PR_HEAD_REF.test(ref)) {
        headCheckout = { line: scan.nodeLine(refNode), ref };
        if (gate === null) scan.add('HIGH', 'remote_code_execution', 'privileged workflow checks out pull request code', scan.nodeLine(refNode), `${ref} under ${scan.privileged.join(', ')}`);
      }
    }
  }
}

/**
 * Artifacts of the run that triggered a `workflow_run` workflow: that run built a pull request, so
 * whoever wrote the pull request wrote the artifact, and the privileged run that downloads it holds
 * the secrets and a write token (GitHub Security Lab, "Keeping your GitHub Actions and workflows
 * secure Part 1"; the 2024-2025 artifact-poisoning reports against large projects).
 */
interface TriggeringArtifact {
  /** Where the files land: the step's `path`, or the workspace. */
  path: string | null;
  line: number | undefined;
  evidence: string;
}

const TRIGGERING_RUN = /github\.event\.workflow_run\.(?:id|run_id|artifacts_url|workflow_id)|workflow_run\.id/;
const ARTIFACT_ACTION = /^(?:actions\/download-artifact|dawidd6\/action-download-artifact|bettermarks\/action-artifact-download|aochmann\/actions-download-artifact)@/i;

function triggeringArtifact(scan: WorkflowScan, step: YAMLMap, uses: string, withNode: Node | null, run: string | null): TriggeringArtifact | null {
  const line = scan.nodeLine(get(step, 'uses') ?? get(step, 'run'));
  if (ARTIFACT_ACTION.test(uses) && isMap(withNode)) {
    const values = withNode.items.map((p) => `${isScalar(p.key) ? String(p.key.value) : ''}: ${text(p.value as Node | null) ?? ''}`).join('\n');
    // dawidd6's action defaults to the triggering run under workflow_run; download-artifact needs a run id.
    if (!TRIGGERING_RUN.test(values) && !/^dawidd6\//i.test(uses)) return null;
    return { path: text(get(withNode, 'path')), line, evidence: `${uses} of the triggering run` };
  }
  const script = run ?? (isMap(withNode) && uses.startsWith('actions/github-script@') ? text(get(withNode, 'script')) : null);
  if (script === null || !TRIGGERING_RUN.test(script)) return null;
  if (/\bgh\s+run\s+download\b|listWorkflowRunArtifacts|downloadArtifact|\/artifacts\b/.test(script)) {
    const into = /\s(?:-D|--dir)\s+["']?([^\s"']+)/.exec(script)?.[1] ?? null;
    return { path: into, line, evidence: 'downloads the triggering run\'s artifacts' };
  }
  return null;
}

/** How a later step uses the artifact's files: runs one, builds or installs in them, or feeds them to later steps' environment. */
function artifactUse(artifact: TriggeringArtifact, run: string | null, uses: string): string | null {
  if (uses.startsWith('./')) return `the local action ${uses} (its files may be the artifact's)`;
  if (run === null) return null;
  if (/>>\s*["']?\$\{?GITHUB_(?:ENV|PATH)\b/.test(run) && /\bcat\b|\$\(|<\s*\S|\bread\b|unzip/.test(run)) return 'writes the artifact\'s content to $GITHUB_ENV or $GITHUB_PATH';
  const dir = (artifact.path ?? '').replace(/^\.\//, '').replace(/\/$/, '');
  const esc = dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const inArtifact = dir === '' || dir === '.' ? '\\.\\/[\\w./-]+|[\\w-]+\\.(?:sh|py|js|mjs|cjs|ps1)\\b' : `(?:\\.\\/)?${esc}\\/[\\w./-]+|\\bcd\\s+["']?(?:\\.\\/)?${esc}\\b`;
  const runs = new RegExp(`(?:^|[\\s;&|(])(?:(?:bash|sh|source|\\.|node|python3?|pwsh|chmod\\s+\\+x)\\s+)?["']?(?:${inArtifact})`, 'm');
  const build = /\b(?:npm\s+(?:ci|install|run|test)|yarn|pnpm|make|pip\s+install|python3?\s+setup\.py|\.\/gradlew|mvn)\b/;
  const m = runs.exec(run);
  if (m !== null && (/\b(?:bash|sh|source|node|python3?|pwsh|chmod)\b|^\s*\.\/|[\s;&|(]\.\//.test(m[0]) || (/\bcd\b/.test(m[0]) && build.test(run)))) return `runs ${m[0].trim().slice(0, 80)}`;
  return null;
}

function writeAll(node: Node | null): boolean {
  return text(node) === 'write-all';
}

/**
 * The findings of one GitHub Actions workflow: privileged triggers running pull request code,
 * script injection, secrets printed, scripts piped from the network into a shell, actions not
 * pinned to a commit and actions known to have been compromised. A file that is not valid YAML is
 * reported at LOW (GitHub would refuse it too).
 */
export function workflowFindings(path: string, source: string): AgentFinding[] {
  return scanWorkflow(path, source).findings;
}

/** The findings of a workflow and the run steps that hand named secrets to programs of the repository. */
export function scanWorkflow(path: string, source: string): { findings: AgentFinding[]; handoffs: SecretHandoff[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    const findings = [
      referenceFinding({
        category: 'ci_workflow',
        severity: 'LOW',
        title: 'workflow file is not valid YAML; it was not checked',
        file: path,
        line: lineCounter.linePos(error.pos[0]).line,
        evidence: error.message.split('\n')[0],
      }),
    ];
    return { findings, handoffs: [] };
  }
  const root = doc.contents;
  if (!isMap(root)) return { findings: [], handoffs: [] };
  const scan = new WorkflowScan(path, source, lineCounter, triggersOf(get(root, 'on')));
  scan.workflowEnv = get(root, 'env');
  scan.workflowPermissions = get(root, 'permissions');
  const jobs = get(root, 'jobs');
  if (isMap(jobs)) {
    for (const pair of jobs.items) if (isMap(pair.value)) checkJob(scan, pair.value);
  }
  // Every secret at once, serialized into an environment variable or an action input rather than a
  // script: whatever the step runs (a compromised action, a dependency) gets all of them.
  for (const { match, line } of scan.sourceMatches(root, /toJSON\(\s*secrets\s*\)|\$\{\{\s*secrets\s*\}\}/i)) {
    if (scan.findings.some((f) => f.line === line && f.title === 'workflow script prints or sends every secret')) continue;
    scan.add('HIGH', 'credential_exposure', 'workflow hands every secret to a step at once', line, match[0]);
  }
  if (scan.privileged.includes('pull_request_target')) {
    const top = get(root, 'permissions');
    const jobWriteAll = isMap(jobs) ? jobs.items.map((p) => (isMap(p.value) ? get(p.value, 'permissions') : null)).find(writeAll) : undefined;
    const node = writeAll(top) ? top : (jobWriteAll ?? null);
    if (node) scan.add('MED', 'excessive_permissions', 'pull_request_target workflow grants a write-all token', scan.nodeLine(node), 'permissions: write-all');
  }
  return { findings: scan.findings, handoffs: scan.handoffs };
}

import type { AgentFinding, Severity } from '@vigil/core';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';
import { referenceFinding } from '../common/reference-finding.js';

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
const FAMILIAR_API_HOSTS =
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

class WorkflowScan {
  readonly findings: AgentFinding[] = [];
  readonly privileged: string[];

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

function checkUses(scan: WorkflowScan, usesNode: Node | null): void {
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
  const compromised = COMPROMISED_ACTIONS.find((c) => c.action === action);
  if (compromised && (compromised.shas.includes(ref) || (!pinned && (compromised.refs === '*' || compromised.refs.includes(ref))))) {
    // Not the end: an unpinned reference to it is also the LOW below, as for any third-party action.
    scan.add('CRIT', 'malware', 'workflow uses an action whose tag was repointed to malicious code', line, `${uses}: ${compromised.incident}`);
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

function checkRun(scan: WorkflowScan, runNode: Node | null): void {
  checkScript(scan, runNode);
  for (const { match, line } of scan.sourceMatches(runNode, /toJSON\(\s*secrets\s*\)/i)) {
    scan.add('HIGH', 'credential_exposure', 'workflow script prints or sends every secret', line, match[0]);
  }
  for (const { match, line } of scan.sourceMatches(runNode, /^[^\n]*\b(echo|printf|print|cat|tee)\b[^\n]*\$\{\{\s*secrets\.[A-Za-z0-9_]+\s*\}\}[^\n]*$/m)) {
    if (!echoedToLog(match[0], match[0].search(/\$\{\{\s*secrets\./))) continue;
    scan.add('HIGH', 'credential_exposure', 'workflow script prints a secret', line, match[0].trim());
  }
  for (const { match, line } of scan.sourceMatches(runNode, /\b(curl|wget)\b[^\n|;]*\|\s*(sudo\s+)?(ba|z|da)?sh\b|\b(ba)?sh\s+<\(\s*(curl|wget)\b[^\n)]*\)/)) {
    // Over plain HTTP or from a bare IP address, anyone on the path or no one accountable serves it.
    const url = /(https?):\/\/([^/\s"']+)/.exec(match[0]);
    const weak = url !== null && (url[1] === 'http' || /^\d{1,3}(\.\d{1,3}){3}(:\d+)?$/.test(url[2]!));
    if (weak) scan.add('HIGH', 'remote_code_execution', 'workflow pipes a script from plain HTTP or a bare IP address into a shell', line, match[0]);
    else scan.add('MED', 'remote_code_execution', 'workflow pipes a downloaded script into a shell', line, match[0]);
  }
  for (const { match, line } of scan.sourceMatches(runNode, /^[^\n]*\b(curl|wget|Invoke-WebRequest|iwr)\b[^\n]*$/m)) {
    const secret = /\$\{\{\s*secrets\.([A-Za-z0-9_]+)\s*\}\}/.exec(match[0]);
    const host = /https?:\/\/([^/\s"'\\]+)/.exec(match[0])?.[1] ?? null;
    if (!secret || secret[1] === 'GITHUB_TOKEN' || host === null || FAMILIAR_API_HOSTS.test(host)) continue;
    // A credential in a header authenticates the call (a deploy hook); in the body or the URL it is the payload.
    if (/(^|\s)(-H|--header|-u|--user|--oauth2-bearer|-Headers)\s+["']?[^"'\n]*\$\{\{\s*secrets\./.test(match[0])) continue;
    scan.add('HIGH', 'credential_exposure', 'workflow script sends a secret to an unfamiliar host', line, `secrets.${secret[1]} → ${host}`);
  }
}

function checkJob(scan: WorkflowScan, job: YAMLMap): void {
  checkUses(scan, get(job, 'uses'));
  const steps = get(job, 'steps');
  if (!isSeq(steps)) return;
  let headCheckout: { line: number | undefined; ref: string } | null = null;
  for (const step of steps.items) {
    if (!isMap(step)) continue;
    const usesNode = get(step, 'uses');
    checkUses(scan, usesNode);
    const runNode = get(step, 'run');
    const uses = text(usesNode) ?? '';
    const withNode = get(step, 'with');
    if (headCheckout && scan.privileged.length > 0 && (runNode !== null || uses.startsWith('./'))) {
      scan.add(
        'CRIT',
        'remote_code_execution',
        'privileged workflow checks out and runs pull request code ("pwn request")',
        headCheckout.line,
        `checkout of ${headCheckout.ref} under ${scan.privileged.join(', ')}, then ${runNode !== null ? 'a run step' : uses} (line ${scan.nodeLine(runNode ?? usesNode) ?? '?'})`,
      );
      headCheckout = null;
    }
    if (runNode !== null) checkRun(scan, runNode);
    if (isMap(withNode) && uses.startsWith('actions/github-script@')) checkScript(scan, get(withNode, 'script'));
    if (/^actions\/checkout@/i.test(uses) && isMap(withNode) && scan.privileged.length > 0) {
      const refNode = get(withNode, 'ref') ?? get(withNode, 'repository');
      const ref = text(refNode);
      if (ref !== null && PR_HEAD_REF.test(ref)) {
        headCheckout = { line: scan.nodeLine(refNode), ref };
        scan.add('HIGH', 'remote_code_execution', 'privileged workflow checks out pull request code', scan.nodeLine(refNode), `${ref} under ${scan.privileged.join(', ')}`);
      }
    }
  }
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
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    return [
      referenceFinding({
        category: 'ci_workflow',
        severity: 'LOW',
        title: 'workflow file is not valid YAML; it was not checked',
        file: path,
        line: lineCounter.linePos(error.pos[0]).line,
        evidence: error.message.split('\n')[0],
      }),
    ];
  }
  const root = doc.contents;
  if (!isMap(root)) return [];
  const scan = new WorkflowScan(path, source, lineCounter, triggersOf(get(root, 'on')));
  const jobs = get(root, 'jobs');
  if (isMap(jobs)) {
    for (const pair of jobs.items) if (isMap(pair.value)) checkJob(scan, pair.value);
  }
  if (scan.privileged.includes('pull_request_target')) {
    const top = get(root, 'permissions');
    const jobWriteAll = isMap(jobs) ? jobs.items.map((p) => (isMap(p.value) ? get(p.value, 'permissions') : null)).find(writeAll) : undefined;
    const node = writeAll(top) ? top : (jobWriteAll ?? null);
    if (node) scan.add('MED', 'excessive_permissions', 'pull_request_target workflow grants a write-all token', scan.nodeLine(node), 'permissions: write-all');
  }
  return scan.findings;
}

import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { descriptionClaims } from './description-claims.js';
import { EXECUTABLE_MODE, TRACKING_HOST } from './effect-patterns.js';
import { findInstructionPhrases, type PhraseRule } from '../text/instruction-phrases.js';
import type { HandlerEffect, HandlerEffectKind } from './handler-effect.js';
import type { McpTool } from './mcp-tool.js';
import { hostIs, namedServices } from './expected-service.js';

// System files whose content is a credential or another user's secret, not mere host state.
const SECRET_SYSTEM_FILE = /\/etc\/(?:shadow|gshadow|sudoers|master\.passwd|security\/opasswd)|\/proc\/[^/]+\/(?:environ|mem|maps)|\/root\/\.ssh|auth\.log|\/var\/log\/secure|\/dev\/k?mem|\/var\/run\/docker\.sock|System32\\+config/i;
// Host hardware descriptors: what a system-information tool reads.
const HARDWARE_FILE = /\/proc\/(?:cpuinfo|meminfo|version|devices|partitions|mounts|loadavg|uptime)\b|\/sys\/(?:class|devices)\//;
// Modes that make a file world-writable or run as its owner (setuid/setgid).
const DANGEROUS_MODE = /\b0o?[4267][0-7]{3}\b|\b0o?[0-7]?777\b|S_IS[UG]ID|\b(?:2559|3583|1533|511|2541)\b|\+s\b|[ug]\+s/;
// Checks that keep an archive's members inside the destination (zip slip).
const PATH_CHECK = /\b(?:realpath|abspath|commonpath|commonprefix|is_relative_to|resolve|normpath|startswith|relative_to|filter\s*=\s*['"]data)|\.\.\//;

/**
 * Tool names other servers use for their tools: a server offering one of these is chosen by the
 * model when the user asks for the other server's tool (tool-name collision).
 */
export const WELL_KNOWN_TOOLS: ReadonlySet<string> = new Set([
  'read_file', 'read_text_file', 'read_multiple_files', 'write_file', 'edit_file', 'list_directory', 'directory_tree', 'search_files', 'get_file_info', 'move_file', 'create_directory',
  'get_file_contents', 'create_or_update_file', 'push_files', 'create_issue', 'create_pull_request', 'search_repositories', 'send_email', 'send_message', 'read_email', 'search_emails',
  'execute_command', 'run_command', 'browser_navigate', 'browser_snapshot', 'fetch', 'query', 'read_query', 'write_query', 'list_tables', 'slack_post_message', 'git_status', 'git_diff', 'git_commit', 'git_push',
  'list_directory_with_sizes', 'git_log', 'git_show', 'git_diff_staged', 'git_diff_unstaged', 'git_add', 'git_checkout',
]);

/**
 * A tool result that tells the model to call tools with the user's private data: an injection the
 * server itself returns, in words that need none of the shared rules' trigger phrases.
 */
// What a steering instruction asks to hand over: secrets make it CRIT (as `instruction to read secrets and pass them on`).
const OUTPUT_SECRET = /\b(?:credentials?|passwords?|api\s+keys?|tokens?|secrets?|private\s+keys?|ssh|environment\s+variables?|seed\s+phrases?|mnemonics?)\b|\.(?:ssh|aws|env|npmrc|netrc|pypirc|git-credentials|kube|docker)\b/i;

/** The severity of a tool-output steering finding: CRIT when what it asks the model to pass on (the match and the 80 characters after it) is a secret. */
export function outputSeverity(match: string, base: Severity): Severity {
  return OUTPUT_SECRET.test(match) ? 'CRIT' : base;
}

export const OUTPUT_RULES: readonly PhraseRule[] = [
  {
    // (Round s30, real false alarms: roda-mcp-server's "Use the AWS CLI with your own credentials to access this
    // bucket".) "With your own credentials" is how the user signs in to a service, not data handed to a tool.
    id: 'output-steers-tools',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'tool output tells the model to call tools with private data',
    pattern:
      /\b(?:call|invoke|use|run|execute)\s+(?:the\s+)?['"`]?[\w.-]+['"`]?(?:\s+tool)?\b[^.\n]{0,100}?\b(?:with|passing|including|to\s+(?:send|upload|forward|share|post)|and\s+(?:send|include|pass|attach|forward|upload))\b[^.\n]{0,80}?\b(?:(?:the\s+)?user['’]s\s+\w+|contents?\s+of|(?<!\bwith\s+(?:your|their|the\s+user['’]s)\s+own\s+(?:[\w-]+\s+)?)credentials?|passwords?|api\s+keys?|tokens?|secrets?|private\s+keys?|ssh|emails?|messages?|conversation|chat\s+history|files?\s+in|environment\s+variables?)\b/i,
  },
  {
    // A credential file named between the tool to call and what to do with it: a path has dots
    // (`~/.aws/credentials`), so the sentence rule above stops at it.
    id: 'output-steers-tools-credential-file',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'tool output tells the model to call tools with private data',
    pattern:
      /\b(?:call|invoke|use|run|execute)\s+(?:the\s+)?['"`]?[\w.-]+['"`]?\s+tool\b[^\n]{0,160}?(?:~|\$HOME|\/home\/[\w.-]+|\/Users\/[\w.-]+|%USERPROFILE%)?\/?\.(?:ssh\/[\w.-]+|aws\/credentials|npmrc|netrc|pypirc|git-credentials|kube\/config|docker\/config\.json|env)\b[^\n]{0,160}?\b(?:include|pass|send|attach|upload|forward|post|share|paste)\w*\b|\b(?:call|invoke|use|run|execute)\s+(?:the\s+)?['"`]?[\w.-]+['"`]?\s+tool\b[^\n]{0,160}?\b(?:include|pass|send|attach|upload|forward|post|share|paste)\w*\b[^\n]{0,160}?(?:~|\$HOME)?\/?\.(?:ssh\/[\w.-]+|aws\/credentials|npmrc|netrc|pypirc|git-credentials|kube\/config|docker\/config\.json|env)\b/i,
  },
];

// A tool that says it writes programs: scripts, executables, builds, installs.
const MAKES_PROGRAMS = /\b(?:executables?|scripts?|binar(?:y|ies)|install\w*|build\w*|compil\w*|shell)\b/i;

// A description that says the tool changes nothing.
const READ_ONLY = /\bread[- ]?only\b|\bnever\s+(?:modif|writ|delet|chang|remov|alter)\w*|\bdoes(?:\s+not|n['’]t)\s+(?:modify|change|write|delete|remove|alter)\b|\bwithout\s+(?:modifying|changing|altering|side[- ]effects)\b|\bno\s+side[- ]effects\b|\bnon[- ]destructive\b/i;
const NOT_READ_ONLY = /\bnot\s+(?:a\s+)?read[- ]?only\b|\bread[- ]?only\s*(?::\s*)?(?:false|no)\b/i;

interface Rule {
  kind: HandlerEffectKind | 'env-enumeration' | 'mismatch-network' | 'mismatch-write' | 'collision-upload' | 'offline-claim' | 'secret-system-file' | 'system-write';
  category: string;
  severity: Severity;
  title: string;
}

const T = (kind: Rule['kind'], category: string, severity: Severity, title: string): Rule => ({ kind, category, severity, title });

/**
 * Findings from comparing what each tool says it does (name, description, parameter names) with
 * what its handler's code does (effects found in it and in the same-file functions it calls).
 */
export function toolBehaviourFindings(tool: McpTool, effects: readonly HandlerEffect[]): AgentFinding[] {
  if (effects.length === 0) return [];
  const claims = descriptionClaims(tool);
  const out: AgentFinding[] = [];
  const of = (kind: HandlerEffectKind) => effects.filter((e) => e.kind === kind);
  const emit = (rule: Rule, effect: HandlerEffect, detail?: string) => {
    out.push(referenceFinding({ category: rule.category, severity: rule.severity, title: rule.title, file: tool.file, line: effect.line, evidence: `${tool.kind} ${tool.name}: ${detail ?? effect.evidence}`.slice(0, 400) }));
  };

  // Network use the description does not disclose: a local operation that also sends data away.
  // A call to the service the tool is for is disclosed by that: the service its server is named for,
  // the one whose credential the call presents (effect.service), or one its description names as a
  // name is written ("… in Asana" for app.asana.com). A tracking or collection host is never disclosed this way (round s28).
  const network = of('network');
  const described = namedServices(tool.description);
  const expected = (e: HandlerEffect) => e.service === true || (e.host !== undefined && !TRACKING_HOST.test(e.host) && described.some((w) => hostIs(e.host!, w)));
  const undisclosed = network.filter((e) => !claims.network && !expected(e) && (e.discarded === true || e.carriesRead === true || (e.host !== undefined && TRACKING_HOST.test(e.host))));
  const leak = undisclosed.find((e) => e.fromInput || e.carriesRead === true);
  if (leak) emit(T('mismatch-network', 'exfiltration', 'HIGH', 'tool sends its input or what it read to the network though its description does not say so'), leak);
  else if (undisclosed[0]) emit(T('mismatch-network', 'exfiltration', 'MED', 'tool makes network calls its description does not mention'), undisclosed[0]);
  // A tool that promises to stay offline and sends anyway: what it says is false, whatever its
  // parameters are called (a `webhook_url` or `api_base` it never uses does not disclose the send).
  // Only a call to a named host off this machine counts: a local model server (`localhost:11434`) is how "runs locally" works.
  const offMachine = network.filter((e) => e.host !== undefined && !/^(?:localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal)$/i.test(e.host));
  if (claims.offline && offMachine.length > 0) {
    const sends = offMachine.find((e) => e.fromInput || e.carriesRead === true);
    emit(T('offline-claim', 'exfiltration', sends ? 'CRIT' : 'HIGH', sends ? 'tool says it works offline but sends its input or what it read to the network' : 'tool says it works offline but makes network calls'), sends ?? offMachine[0]!, `${(sends ?? offMachine[0]!).host}: ${(sends ?? offMachine[0]!).evidence}`);
  }
  const trackers = network.filter((e) => e.discarded === true && e.host !== undefined && TRACKING_HOST.test(e.host));
  const tracking = trackers.find((e) => e.fromInput || e.carriesRead === true) ?? trackers[0];
  if (tracking && claims.network) {
    // With the tool's input in the payload, the user's data goes to a collector the description never names.
    const carries = tracking.fromInput || tracking.carriesRead === true;
    emit(T('network', 'exfiltration', carries ? 'HIGH' : 'MED', carries ? 'tool sends its input to a tracking or collection endpoint and ignores the answer' : 'tool reports to a tracking or collection endpoint and ignores the answer'), tracking, `${tracking.host ?? ''}: ${tracking.evidence}`);
  }
  // A tool named like another server's tool that uploads what it reads: the model picks it for the other server's job.
  const upload = network.find((e) => e.carriesRead === true || e.fromInput);
  // What a git tool shows is a process's output (`git diff`): what it reads, too.
  const reads = of('file-read').length > 0 || of('credential-file').length > 0 || of('env-enumeration').length > 0 || (tool.name.startsWith('git_') && of('process').some((e) => e.fromInput));
  if (WELL_KNOWN_TOOLS.has(tool.name) && upload && reads && !claims.network) emit(T('collision-upload', 'exfiltration', 'CRIT', 'tool named like another server\'s tool sends what it reads to the network'), upload);

  const template = of('template-injection')[0];
  if (template) emit(T('template-injection', 'remote_code_execution', 'HIGH', 'tool renders its input as a server-side template (template injection)'), template);

  const decodedRun = of('code-eval').find((e) => e.decoded === true);
  if (decodedRun) emit(T('code-eval', 'obfuscation', 'CRIT', 'tool handler decodes data and runs it as code'), decodedRun);
  const evalInput = of('code-eval').find((e) => e.fromInput);
  const evalAny = of('code-eval')[0];
  const evalUnrestricted = of('code-eval').find((e) => e.fromInput && e.unrestricted === true);
  if (evalInput && !claims.code) emit(T('code-eval', 'remote_code_execution', 'HIGH', 'tool evaluates its input as code though its description does not say so'), evalInput);
  // Saying "evaluate expressions" or "load plugins" does not say that any text the model sends runs with the server's rights.
  else if (evalUnrestricted) emit(T('code-eval', 'remote_code_execution', 'HIGH', 'tool runs its input as code in the server process without restriction'), evalUnrestricted);
  else if (evalInput) emit(T('code-eval', 'remote_code_execution', 'MED', 'tool evaluates its input as code'), evalInput);
  else if (evalAny && !claims.code) emit(T('code-eval', 'remote_code_execution', 'MED', 'tool handler evaluates or deserializes data as code'), evalAny);

  const query = of('query-injection')[0];
  if (query) emit(T('query-injection', 'vulnerability', 'HIGH', 'tool writes its input into the text of a database, directory or XPath query (injection)'), query);

  const processInput = of('process').find((e) => e.fromInput);
  const shellLine = of('process').find((e) => e.fromInput && e.shellLine === true);
  // The input in a line another module runs in a shell: command injection one module away.
  // (A git or ffmpeg tool runs a process by its nature; only a tool whose input is a command line may hand one over.)
  if (shellLine && !/\b(?:commands?|shell|terminal|scripts?|bash|powershell|cli)\b/i.test(claims.words)) emit(T('process', 'remote_code_execution', 'HIGH', 'tool puts its input into a shell command that a helper module runs'), shellLine);
  else if (processInput && !claims.processes) emit(T('process', 'remote_code_execution', 'MED', 'tool runs processes with its input though its description does not say so'), processInput);

  // System files: credential-grade ones weigh more than host state.
  const systemFiles = of('system-file');
  const secretSystem = systemFiles.find((e) => SECRET_SYSTEM_FILE.test(e.evidence));
  const writesOrDeletes = of('file-write').length + of('file-delete').length + of('permissions').length + of('link').length > 0;
  if (secretSystem) emit(T('secret-system-file', 'credential_access', 'HIGH', 'tool handler reads password, sudo or process-secret files of the host'), secretSystem);
  const systemTarget = systemFiles[0] ?? of('system-location')[0];
  if (systemTarget && writesOrDeletes) emit(T('system-write', 'excessive_permissions', 'HIGH', 'tool handler writes, deletes, links or changes permissions of system files'), systemTarget);
  else if (systemFiles.length > 0 && !secretSystem) {
    // Accounts, other processes, network tables and logs are other users' data; CPU and memory descriptors are not.
    const private_ = systemFiles.find((e) => !HARDWARE_FILE.test(e.evidence));
    if (private_) emit(T('system-file', 'excessive_permissions', 'HIGH', 'tool handler reads accounts, other processes, network tables or logs of the host'), private_);
    else emit(T('system-file', 'excessive_permissions', 'MED', 'tool handler reads hardware descriptors of the host'), systemFiles[0] as HandlerEffect);
  }
  const hostEnum = of('host-enumeration')[0];
  if (hostEnum) emit(T('host-enumeration', 'excessive_permissions', claims.system ? 'LOW' : 'MED', 'tool handler enumerates host accounts, processes or interfaces'), hostEnum);
  // The whole environment holds every secret the server was given; a tool that says it shows the environment may.
  const envEnum = of('env-enumeration')[0];
  if (envEnum) emit(T('env-enumeration', 'credential_access', /\benv(?:ironment)?\b|\bvariables\b/i.test(claims.words) ? 'MED' : 'HIGH', 'tool handler collects the whole environment its description does not mention'), envEnum);
  const metadata = of('metadata-service')[0];
  if (metadata && network.length > 0) emit(T('metadata-service', 'credential_access', 'HIGH', 'tool handler requests the cloud instance-metadata service (instance credentials)'), metadata);
  const scan = of('port-scan')[0];
  // A port scanner that says so is a diagnostic tool; one inside anything else probes the user's network.
  if (scan) emit(T('port-scan', 'excessive_permissions', /\b(?:ports?|scan\w*|nmap|diagnos\w*|probe)\b/i.test(claims.words) ? 'MED' : 'HIGH', 'tool handler connects to many ports in a loop (port scan)'), scan);

  const persistence = of('persistence')[0];
  if (persistence && (of('file-write').length > 0 || of('process').length > 0 || of('link').length > 0)) emit(T('persistence', 'persistence', 'HIGH', 'tool handler writes to a login, schedule or SSH-key location'), persistence);

  // Hidden files where every user's temporary files go: the tool conceals what it keeps.
  const hiddenTemp = of('hidden-temp')[0];
  const written = of('file-write').length > 0 || of('stored-input').length > 0;
  if (hiddenTemp && of('stored-input').length > 0) emit(T('hidden-temp', 'exfiltration', 'HIGH', 'tool records its input in a hidden file in a shared temporary directory'), hiddenTemp, `${hiddenTemp.evidence} … ${(of('stored-input')[0] as HandlerEffect).evidence}`);
  else if (hiddenTemp && written) emit(T('hidden-temp', 'obfuscation', 'MED', 'tool handler writes hidden files in a shared temporary directory'), hiddenTemp);
  // A file written, then given an execute bit: a dropper, unless the tool says it makes scripts.
  const executable = of('permissions').find((e) => EXECUTABLE_MODE.test(e.evidence));
  if (executable && of('file-write').length > 0) emit(T('permissions', 'malware', MAKES_PROGRAMS.test(claims.words) ? 'LOW' : 'HIGH', 'tool handler writes a file and makes it executable'), executable);

  const mode = of('permissions').find((e) => DANGEROUS_MODE.test(e.evidence));
  if (mode) emit(T('permissions', 'excessive_permissions', 'HIGH', 'tool handler makes files setuid or world-writable'), mode);
  else if (of('permissions')[0] && !claims.permissions) emit(T('permissions', 'excessive_permissions', 'LOW', 'tool handler changes file permissions its description does not mention'), of('permissions')[0] as HandlerEffect);

  const link = of('link')[0];
  if (link && (systemFiles.length > 0 || of('credential-file').length > 0)) emit(T('link', 'excessive_permissions', 'HIGH', 'tool handler links to system or credential files'), link);
  else if (link && !claims.links) emit(T('link', 'excessive_permissions', 'MED', 'tool handler creates links its description does not mention'), link);

  const traversal = of('path-traversal')[0];
  const opensInput = ['file-read', 'file-write', 'file-delete', 'extract'].some((k) => of(k as HandlerEffectKind).some((e) => e.fromInput));
  if (traversal && opensInput) emit(T('path-traversal', 'vulnerability', 'HIGH', 'tool joins its input to a base directory and uses the path without keeping it inside (path traversal)'), traversal);

  // Search results, recommendations, cached answers: links the server adds by itself, picked by the user's words.
  const injected = of('injected-link')[0];
  if (injected) emit(T('injected-link', 'tool_poisoning', 'HIGH', 'tool adds fixed links of its own to its results when the input holds certain words'), injected);

  const extract = of('extract').find((e) => e.fromInput);
  // A tar member may be absolute, climb with `..` or be a link: with neither a filter nor a check it is written anywhere.
  const tarAnywhere = of('extract').find((e) => e.fromInput && e.unfiltered === true);
  if (tarAnywhere) emit(T('extract', 'excessive_permissions', 'HIGH', 'tool extracts a tar archive from its input with no member filter (members land anywhere)'), tarAnywhere);
  else if (extract && !effects.some((e) => PATH_CHECK.test(e.evidence)) && !PATH_CHECK.test(extract.evidence)) emit(T('extract', 'excessive_permissions', 'MED', 'tool extracts archives without checking where members land (zip slip)'), extract);

  // A tool that says it only reads (in words or with the readOnlyHint annotation clients trust to skip
  // confirmation) and changes files or permissions at a path the model chooses.
  if (tool.readOnlyHint === true || (READ_ONLY.test(tool.description) && !NOT_READ_ONLY.test(tool.description))) {
    const change = ['file-delete', 'file-write', 'permissions', 'link'].map((k) => of(k as HandlerEffectKind).find((e) => e.fromInput)).find((e) => e !== undefined);
    const anyDelete = of('file-delete')[0];
    if (change) emit(T('file-delete', 'excessive_permissions', 'HIGH', 'tool says it only reads but changes or deletes files its input names'), change);
    else if (anyDelete) emit(T('file-delete', 'excessive_permissions', 'MED', 'tool says it only reads but deletes files'), anyDelete);
  }
  const deleteInput = of('file-delete')[0];
  // Caches, state and temporary files come and go in ordinary servers: information, not a signal.
  if (deleteInput && !claims.deletes) emit(T('file-delete', 'excessive_permissions', 'LOW', 'tool deletes files its description does not mention'), deleteInput);
  const write = of('file-write').find((e) => !e.fromInput);
  if (write && !claims.writes && !claims.files) emit(T('mismatch-write', 'excessive_permissions', 'LOW', 'tool writes files its description does not mention'), write);

  // What the handler returns is read by the model like a description (the shared rules already read
  // every string of the code); this one is for results that steer the model's next tool calls.
  for (const text of of('returned-text')) {
    const hit = findInstructionPhrases(text.evidence, OUTPUT_RULES)[0];
    if (!hit) continue;
    emit(T('returned-text', hit.rule.category, outputSeverity(text.evidence.slice(hit.offset, hit.offset + hit.match.length + 80), hit.rule.severity), hit.rule.title), text, text.evidence.slice(Math.max(0, hit.offset - 40), hit.offset + hit.match.length + 80));
    break;
  }

  const unbounded = of('unbounded');
  const spawning = unbounded.find((e) => e.fromInput);
  if (spawning) emit(T('unbounded', 'resource_exhaustion', 'HIGH', 'tool starts processes, threads or connections in a loop without a bound (resource exhaustion)'), spawning);
  else if (unbounded[0]) emit(T('unbounded', 'resource_exhaustion', 'HIGH', 'tool handler does work without a bound (resource exhaustion)'), unbounded[0]);
  const regex = of('input-regex')[0];
  if (regex && !claims.patterns) emit(T('input-regex', 'resource_exhaustion', 'MED', 'tool compiles a regular expression from its input (ReDoS)'), regex);
  return out;
}

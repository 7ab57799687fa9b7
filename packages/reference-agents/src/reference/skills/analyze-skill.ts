import { SHOWS_SCRIPT_OUTPUT, imageTemplateScriptFinding } from './image-exfiltration.js';
import { linkArtifactConstants } from '../common/linked-constants.js';
import type { AgentFinding } from '@vigil/core';
import type { TrackAnalyzer } from '../common/analyzer.js';
import { listArtifactFiles, readArtifactText, type ArtifactFile } from '../common/artifact-files.js';
import { modelFileFindings } from '../common/model-file-findings.js';
import { invisibleCodeFindings } from '../packages/hidden-code-findings.js';
import { CONTEXT_INJECTION } from '../text/context-injection.js';
import { quotedAsPattern } from '../text/quoted-example.js';
import { attackerValueSpecimen } from '../text/attacker-value.js';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { resultFromFindings } from '../common/score-findings.js';
import { instructionTextFindings } from '../text/instruction-text-findings.js';
import { scriptFactFindings } from './script-fact-findings.js';
import { dnsExfiltrationFinding } from '../text/dns-exfiltration.js';
import { CONVERSATION_UPLOAD_RULES } from '../mcp-servers/data-request-rules.js';
import { hookCommandWithPayload, projectFormatterHook } from '../text/formatter-hook.js';
import { skillLinkFiles } from './skill-link-files.js';
import { SECRET_PATH_PATTERN, type ScriptFact } from './script-fact.js';
import { isTestOrExample, languageOf, scriptFacts, shebangLanguage, worthParsing } from './script-facts.js';
import { skillCapabilityFindings, type SkillCode } from './skill-capabilities.js';
import { shellFacts } from './shell-facts.js';
import { helperDownloadFacts } from './shell-download-helpers.js';
import { passwordDialogFinding } from './password-dialog.js';
import { parseSkillFrontMatter } from './skill-front-matter.js';
import { downloadHostKind, firstUrl } from './download-host.js';
import { skillDocumentFindings } from './skill-document-findings.js';
import { otherSkillsRewrite } from './other-skills-rewrite.js';
import { agentActionFindings, describedAsAttack } from './agent-action-findings.js';
import { skillFileFindings } from './skill-file-findings.js';
import { privilegedShimFinding } from '../text/privileged-shim.js';
import { logicBombFinding } from './logic-bomb.js';
import { agentConfigFindings, agentConfigKind, UNPINNED_MCP_CREDENTIALS_TITLE } from '../repositories/agent-config-findings.js';
import { startupSnippets } from './startup-snippets.js';
import { GIT_HOOK_NAME, globalGitHooksFinding } from './git-hooks.js';
import { APPROVAL_OFF, WRITES, agentSettingsFindings, joinedPaths, mcpTrustSettingsWrite } from '../code/agent-settings-writes.js';
import { MEMORY_FILE_IN_CODE, MEMORY_TARGET, plantedHarm, stringLiterals } from '../text/memory-plant.js';
import { plantFindings } from '../repositories/memory-plant-findings.js';
import { devContainerScripts } from '../code/dev-container-scripts.js';
import { indexConfigFindings, indexConfigKind } from '../repositories/index-config-findings.js';
import { FAMILIAR_API_HOSTS, scanWorkflow } from '../repositories/workflow-findings.js';
import { browserSkimmerFinding } from './browser-skimmer.js';
import { destructiveOrder } from '../text/destructive-orders.js';
import { obeyedScriptOutput, printsFetchedText, type ObeyedOutput } from '../text/remote-instructions.js';
import { SECRET_HANDOFF_TITLE, secretHandoffs } from '../text/secret-handoff-text.js';
import { backdoorCodeOrder } from '../text/backdoor-code-order.js';
import { accessGrantOrder } from '../text/access-grant-order.js';
import { folderUpload, hostDisclosed, type FolderUpload } from './folder-upload.js';
import { folderArchiveOrder, type FolderArchiveOrder } from './folder-archive-order.js';
import { signingSecretSent, walletContext, walletOnlyField } from './signing-secret-sent.js';
import { downloadedTextFiles, obeyedDownloadedFile, type DownloadedFile } from './downloaded-instructions.js';
import { userSecretRequest, type UserSecretRequest } from '../text/user-secret-request.js';
import { scriptRunWithRequest, scriptSendsItsInput } from './input-sent.js';
import { ARTIFACT_TEMPLATE_PATH, SECRET_INTO_ARTIFACT_TITLE, artifactTemplateFiles, secretArtifactCommand, secretIntoArtifact, secretSlotInTemplate } from '../text/secret-into-artifact.js';
import { dependencyFindings, manifestSquatFindings } from './dependency-findings.js';
import { dependencyOrders, dependencyOrdersInCode } from '../text/dependency-orders.js';
import { modelTextOrders, notReportedYet } from '../text/model-text-orders.js';
import { consentedProjectHooks, guardedCommand, projectHookFinding } from './guard-hooks.js';
import { manifestRedirect, redirectDisclosed, type ManifestRedirect } from './manifest-redirect.js';

// (round s31b) Code files read for a redirect written into the user's manifests, beyond the languages scripts are parsed in.
const CODE_FILE_FOR_REDIRECT = /\.(?:py|pyw|js|mjs|cjs|ts|mts|cts|sh|bash|zsh|ps1|go|rb|rs|pl|php)$/i;
// Documents a model reads, and coding agents' rules files (Cursor `.mdc`, `.cursorrules`, …) a skill or rules pack ships.
const DOCUMENT = /\.(?:md|mdx|markdown|txt|rst|mdc)$|(?:^|\/)\.(?:cursorrules|windsurfrules|clinerules|goosehints|roorules)$/i;
// Configuration and data a skill's code reads: endpoints and credentials live here too.
const CONFIG = /\.(?:json|ya?ml|toml|ini|cfg|conf|env|properties)$|(?:^|\/)\.env(?:\.[\w-]+)?$/i;
// What a skill says when it does talk to the network: then a request in its scripts is expected.
const DECLARES_NETWORK =
  /https?:\/\/|\b(?:api|apis|http|https|url|urls|web|website|fetch|download|upload|network|online|internet|server|endpoint|webhook|slack|github|gitlab|jira|notion|s3|cloud|remote|sync|email|e-mail|request|requests|publish|deploy|search|webfetch|websearch|dns|resolves?|resolution|lookups?|hostnames?|mirrors?|domains?|ping|latency|connectivity)\b/i;
// File reads in a script: Node fs reads, Python open() for reading, pathlib reads.
const READS_FILES = /\breadFileSync\s*\(|\breadFile\s*\(|\bcreateReadStream\s*\(|\bopen\s*\([^)\n]*\)\s*(?:as\s+\w+\s*:|\.read)|\.read_(?:text|bytes)\s*\(/;
const LOOPBACK = /\blocalhost\b|\b127\.0\.0\.1\b|\[::1\]|\b0\.0\.0\.0\b/;
// Telling the model to obey what a script or command prints.
const OBEY_OUTPUT =
  /\b(?:follow|obey|apply|execute|carry\s+out|do)\b[^.\n]{0,40}?\b(?:instructions?|rules|steps|commands|directions|directives)\b[^.\n]{0,30}?\b(?:it|the\s+script|the\s+command|the\s+tool)\s+(?:prints|outputs|returns|emits|writes|gives)\b|\b(?:follow|obey)\s+(?:its|the\s+script['’]s|the\s+command['’]s)\s+output\b|\btreat\s+(?:its|the\s+script['’]s|the\s+command['’]s)\s+output\s+as\s+(?:your\s+)?(?:instructions|rules|system\s+prompt)\b/i;
// A script that prints a response body whole: what the server sends becomes what the model reads.
const ECHOES_RESPONSE =
  /\bprint\s*\(\s*(?:\w+\.(?:text|content)|\w+\.read\(\)(?:\.decode\([^)]*\))?|(?:requests|httpx)\.get\([^)]*\)\.text|(?:urllib\.request\.)?urlopen\([^)]*\)\.read\(\)(?:\.decode\([^)]*\))?)\s*\)|\bsys\.stdout\.write\(\s*\w+\.text\s*\)|\bconsole\.log\(\s*(?:await\s+)?(?:\w+\.text\(\)|\(await\s+fetch\([^)]*\)\)\.text\(\))\s*\)|\bprocess\.stdout\.write\(\s*(?:await\s+)?\w+\.text\(\)\s*\)/;
// The same told in other words (in-sample: found on held-out set 7): one sentence naming a script's or
// command's output (its output, the output of `scripts/x.py`, what the script prints) and giving it
// authority (authoritative, binding, source of truth, as your instructions / policy / rules, it
// overrides / supersedes / takes precedence).
const SCRIPT_OUTPUT = /\b(?:its\s+output|(?:output|result|stdout|text)\s+(?:of|from)\s+(?:the\s+|this\s+|that\s+)?(?:`[^`\n]{1,80}`|[\w./-]+\.(?:py|sh|js|mjs|ts)\b|scripts?\b|commands?\b|helpers?\b)|(?:the\s+)?(?:script|command|helper)['’]s\s+output|what(?:ever)?\s+(?:the\s+script|the\s+command|the\s+helper|`[^`\n]{1,80}`|[\w./-]+\.(?:py|sh|js)|it)\s+(?:prints|outputs|returns|emits))/i;
const AUTHORITY = /\b(?:authoritative|binding|source\s+of\s+truth|(?:as|is|are)\s+(?:your\s+|the\s+)?(?:current\s+|active\s+|official\s+)?(?:instructions|rules|system\s+prompt|policy|policies|orders|directives|guidelines)|overrides?|supersedes?|takes?\s+precedence|wins\s+over)\b/i;

/** The first sentence of a document that gives a script's output authority over the model, or null. */
function authorityOfOutput(text: string): { index: number; evidence: string; script?: string } | null {
  // A paragraph's wrapped lines are one text (same length, so indexes stay those of the document).
  const joined = text.replace(/([^\n])\n(?=[^\n])/g, '$1 ');
  for (const m of joined.matchAll(/(?:[^.!?\n]|[.!?](?!\s|$))+(?:[.!?](?=\s|$)|\n|$)/g)) {
    const sentence = m[0];
    const out = SCRIPT_OUTPUT.exec(sentence);
    if (out === null || !AUTHORITY.test(sentence)) continue;
    if (/\b(?:never|don['’]t|do\s+not|avoid|not)\b/i.test(sentence.slice(0, out.index))) continue;
    const script = /[\w./-]+\.(?:py|sh|js|mjs|ts)\b/.exec(out[0])?.[0];
    return { index: m.index + out.index, evidence: sentence.trim().slice(0, 300), ...(script === undefined ? {} : { script }) };
  }
  return null;
}

// A network read whose body a script prints whole: a name assigned from one, printed later.
const NETWORK_BODY = /^\s*(\w+)\s*=\s*[^\n]*\b(?:urlopen|requests\.(?:get|post|request)|httpx\.(?:get|post|request)|session\.get|urllib3\.request|fetch)\b[^\n]*?(?:\.read\(\)|\.text\b|\.content\b|\.json\(\)|\.text\(\))/gm;
// Shell: a download written to standard output (no output file, no pipe, no redirection).
const SHELL_PRINTS_BODY = /^\s*(?:curl\b(?![^\n]*\s(?:-[a-zA-Z]*[oO]\b|--output|-w\b))|wget\b[^\n]*\s-[a-zA-Z]*O\s*-)[^\n|>;&]*https?:\/\/[^\s|>;&]+[^\n|>;&]*$/m;

/** A script with a network call prints what it fetched: the line shapes above, or a printed network body. */
function echoesResponse(text: string, language: string): boolean {
  if (ECHOES_RESPONSE.test(text)) return true;
  if (language === 'shell') return SHELL_PRINTS_BODY.test(text);
  // Python: the body read in one expression and printed, or through a name.
  if (/\b(?:print|sys\.stdout(?:\.buffer)?\.write)\s*\([^\n]*\b(?:urlopen|requests\.get|httpx\.get)\s*\([^\n]*\.(?:read|text|content)\b/.test(text)) return true;
  for (const m of text.matchAll(NETWORK_BODY)) {
    const name = m[1] as string;
    if (new RegExp(`\\b(?:print|sys\\.stdout(?:\\.buffer)?\\.write|console\\.log|process\\.stdout\\.write)\\s*\\(\\s*(?:await\\s+)?${name}\\b(?:\\.decode\\([^)]*\\))?\\s*\\)`).test(text.slice(m.index))) return true;
  }
  return false;
}
// A GitHub Actions workflow by content: top-level `on:` and `jobs:`, and steps that run or use something.
const WORKFLOW_SHAPE = /^(?:on|"on"|'on'):/m;

/** The secret-exposing and code-running findings of a workflow a skill ships, named as the skill's template. */
function shippedWorkflowFindings(path: string, text: string): AgentFinding[] {
  if (!/^jobs:/m.test(text) || !/^\s+(?:-\s+)?(?:run|uses):/m.test(text) || text.length > 256 * 1024) return [];
  return scanWorkflow(path, text).findings
    .filter((f) => (f.category === 'credential_exposure' || f.category === 'remote_code_execution') && (f.severity === 'HIGH' || f.severity === 'CRIT'))
    .map((f) => ({ ...f, title: `CI workflow the skill ships: ${f.title}` }))
    .concat(everySecretSentAway(path, text));
}

/**
 * Every secret serialised (`toJSON(secrets)`) in a step of a shipped workflow that also sends a request to a
 * host no familiar service owns, however the value gets there (a pipe, a file written then uploaded): the
 * template hands the user's whole secret store to that host on every run (CRIT).
 */
function everySecretSentAway(path: string, text: string): AgentFinding[] {
  for (const m of text.matchAll(/toJSON\(\s*secrets\s*\)/gi)) {
    const stepStart = text.lastIndexOf('\n', text.slice(0, m.index).search(/\n\s*-\s+(?:name|uses|run|if|env):[^\n]*(?![\s\S]*\n\s*-\s+(?:name|uses|run|if|env):)/) + 1);
    const rest = text.slice(m.index);
    const next = rest.slice(1).search(/\n\s*-\s+(?:name|uses|run):/);
    const step = text.slice(Math.max(0, stepStart), m.index + (next < 0 ? rest.length : next + 1));
    const send = /\b(?:curl|wget|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|nc|ncat)\b[^\n]*?(?:https?:)?\/\/([\w-]+(?:\.[\w-]+)+)/.exec(step);
    if (send === null || FAMILIAR_API_HOSTS.test(send[1] as string)) continue;
    return [referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'CI workflow the skill ships sends every secret to an unfamiliar host', file: path, line: lineLocator(text)(m.index), evidence: `${m[0]} … ${send[0]}`.slice(0, 300) })];
  }
  return [];
}
const FENCED_BLOCK = /^(?:```|~~~)[^\n]*\n([\s\S]*?)^(?:```|~~~)\s*$/gm;

interface NetworkUse {
  file: string;
  /** The script's first network call. */
  fact: ScriptFact;
  /** The script also reads files: what it sends may be their contents. */
  readsFiles?: boolean;
}

/** Facts of the shell commands a document tells the model to run (its fenced code blocks). */
function documentCommandFacts(text: string): ScriptFact[] {
  const facts: ScriptFact[] = [];
  const locate = lineLocator(text);
  // Fenced blocks by line: `[from, to)` 0-based line ranges of their bodies.
  const fenced: Array<[number, number]> = [];
  for (const m of text.matchAll(FENCED_BLOCK)) {
    const body = m[1] ?? '';
    const offsetLine = locate(m.index + m[0].indexOf('\n') + 1) - 1;
    fenced.push([offsetLine, offsetLine + body.split('\n').length]);
    for (const f of shellFacts(body)) facts.push({ ...f, line: f.line + offsetLine });
  }
  // Indented code blocks (four spaces or a tab, after a blank line) are code blocks too: Markdown renders them
  // as fenced ones, and the model reads their lines as the commands to run.
  for (const block of indentedCodeBlocks(text)) {
    if (fenced.some(([from, to]) => block.line >= from && block.line < to)) continue;
    fenced.push([block.line, block.line + block.body.split('\n').length]);
    for (const f of shellFacts(block.body)) facts.push({ ...f, line: f.line + block.line });
  }
  // `!`command`` outside code blocks: Claude Code runs it when the slash command or skill is invoked
  // and puts its output in the prompt, before the model reads anything: read whole, as a code block is.
  for (const m of text.matchAll(CONTEXT_INJECTION)) {
    const line = locate(m.index) - 1;
    if (fenced.some(([from, to]) => line >= from && line < to)) continue;
    for (const f of shellFacts(m[1] ?? '')) facts.push({ ...f, line: line + 1 });
  }
  // Outside code blocks, prose and inline code (`Run: curl … | bash`) are read for the shapes that are
  // unmistakable on one line, and only on lines that name a downloader, a decoder or a socket.
  if (!PROSE_CANDIDATE.test(text)) return facts;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!PROSE_CANDIDATE.test(line) || fenced.some(([from, to]) => i >= from && i < to)) continue;
    // A shape named without a source ("never pipe `curl … | bash`") is advice, not a command to run.
    const lineFacts = shellFacts(line.replace(/`/g, ' '));
    for (const f of lineFacts) if (PROSE_SHAPES.has(f.kind) && HAS_SOURCE.test(f.evidence)) facts.push({ ...f, line: i + 1 });
    // One command line that reads a credential file and hands it to a network tool (`cat ~/.ssh/id_rsa | curl --data-binary @- …`).
    const secret = lineFacts.find((f) => f.kind === 'secret-path');
    const network = lineFacts.find((f) => f.kind === 'network');
    if (secret !== undefined && network !== undefined && HAS_SOURCE.test(line) && /\|\s*(?:curl|wget|nc|ncat)\b|\s(?:-d|--data(?:-binary|-raw)?|-F|--form|-T|--upload-file)\s*=?\s*["']?@/.test(line) && !/\b(?:never|don['’]t|do\s+not|avoid)\b/i.test(line)) {
      facts.push({ ...secret, line: i + 1 }, { ...network, line: i + 1 });
    }
  }
  return facts;
}
// The first word of a command line in an indented block (an optional `$ ` prompt before it): a program name, a path or an assignment.
const COMMAND_LINE = /^(?:\$\s+)?(?:sudo\s+)?(?:[a-z][\w.+-]*|\.{0,2}\/[\w./-]+|[A-Z_][A-Z0-9_]*=\S*)(?:\s|$)/;
const LIST_LINE = /^[ \t]*(?:[-*+]|\d+[.)])\s/;

/**
 * Markdown's indented code blocks: runs of lines indented by four spaces or a tab (eight spaces in a list,
 * where four only continue the item), opened after a blank line, outside fences. A block counts when one of
 * its lines reads as a command and not every line is a sentence (an indented paragraph of prose is not code).
 * `line` is the 0-based index of the block's first line (a fact's 1-based line in the block plus it is its line in the text).
 */
export function indentedCodeBlocks(text: string): Array<{ line: number; body: string }> {
  if (!/\n(?: {4}|\t)/.test(text)) return [];
  const lines = text.split('\n');
  const out: Array<{ line: number; body: string }> = [];
  let inFence = false;
  let inList = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    if (/^[ \t]{0,3}(?:```|~~~)/.test(l)) inFence = !inFence;
    if (inFence) continue;
    if (LIST_LINE.test(l)) inList = true;
    else if (/^\S/.test(l)) inList = false;
    const indent = inList ? /^(?: {8}|\t\t| {4}\t)/ : /^(?: {4}|\t)/;
    if (!indent.test(l) || i === 0 || (lines[i - 1] as string).trim() !== '' || l.trim() === '') continue;
    const body: string[] = [];
    let j = i;
    for (; j < lines.length; j++) {
      const b = lines[j] as string;
      if (b.trim() === '' && j + 1 < lines.length && indent.test(lines[j + 1] as string)) body.push('');
      else if (indent.test(b)) body.push(b.replace(indent, ''));
      else break;
    }
    const code = body.filter((b) => b.trim() !== '');
    if (code.some((b) => COMMAND_LINE.test(b.trim())) && !code.every((b) => /[.!?:]\s*$/.test(b) && b.trim().split(/\s+/).length > 5)) {
      out.push({ line: i, body: body.map((b) => b.replace(/^\$\s+/, '')).join('\n') });
    }
    i = j - 1;
  }
  return out;
}
const PROSE_SHAPES = new Set<ScriptFact['kind']>(['download-exec', 'decoded-exec', 'reverse-shell']);
// Interpreters given inline code (`python -c`, `node -e`, `powershell -EncodedCommand`) carry encoded payloads too.
const PROSE_CANDIDATE = /\b(?:curl|wget|iwr|Invoke-WebRequest|base64|xxd|nc|ncat|socat|mkfifo|EncodedCommand|enc)\b|\/dev\/tcp|\b(?:python[\d.]*|node|perl|ruby)\s+-[ce]\b/;
const HAS_SOURCE = /https?:\/\/|\b\d{1,3}(?:\.\d{1,3}){3}\b|[A-Za-z0-9+/]{24,}={0,2}|(?:[0-9a-fA-F]{2}){16,}/;

// `"command": "…"` in JSON configuration: hooks (`hooks/hooks.json`, `.claude/settings.json`) and MCP
// server entries a skill or plugin ships run these through a shell.
const JSON_COMMAND = /"command"\s*:\s*"((?:[^"\\\n]|\\.){1,2000})"/g;

/** Facts of the shell commands a JSON configuration file holds, at their lines. */
function jsonCommandFacts(text: string): ScriptFact[] {
  const facts: ScriptFact[] = [];
  const locate = lineLocator(text);
  for (const m of text.matchAll(JSON_COMMAND)) {
    let command: string;
    try {
      command = JSON.parse(`"${m[1] as string}"`) as string;
    } catch {
      continue;
    }
    const line = locate(m.index);
    for (const f of shellFacts(command.replace(/\n/g, ' ; '))) if (f.kind !== 'network') facts.push({ ...f, line });
  }
  return facts;
}

// Where on a line the destructive command or the credential path a fact names starts.
const DESTRUCTIVE_START = /\b(?:sudo\s+)?rm\s|\bdd\s|\bmkfs\b|\bchmod\s+-R\b|\bRemove-Item\b/;
function attackerValueOffset(text: string, lineStart: number, kind: ScriptFact['kind']): number | null {
  if (kind !== 'destructive' && kind !== 'secret-path') return null;
  const end = text.indexOf('\n', lineStart);
  const line = text.slice(lineStart, end < 0 ? text.length : end);
  if (kind === 'destructive') {
    const m = DESTRUCTIVE_START.exec(line);
    return m === null ? null : lineStart + m.index;
  }
  for (const w of line.matchAll(/[^\s"'=;|&<>()@]+/g)) if (SECRET_PATH_PATTERN.test(w[0])) return lineStart + w.index + Math.max(0, w[0].search(/[~/.\\]/));
  return null;
}

/**
 * Findings for the commands a document shows. A download run at once keeps its HIGH weight unless its
 * host says more: an anonymous host (IP address, plain http, paste site, tunnel) makes it CRIT; the
 * official site of a tool the document itself runs makes it LOW (an installer one-liner quoted in
 * setup instructions).
 */
function documentCommandFindings(file: string, text: string, skillText = ''): AgentFinding[] {
  const findings: AgentFinding[] = [];
  const kept: ScriptFact[] = [];
  const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
  for (const fact of documentCommandFacts(text)) {
    // A command quoted in a review skill's list of patterns to detect is named, not run.
    if (quotedAsPattern(text, lineStarts[fact.line - 1] ?? 0)) {
      findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'LOW', title: 'document quotes a dangerous command as a pattern to detect', file, line: fact.line, evidence: fact.evidence }));
      continue;
    }
    // (round s30, real false alarms) A destructive command or a credential path that is the value an attacker supplies in a
    // vulnerable-code example (`// Attacker: ?dir=; rm -rf /` in a PHP block about shell injection) is shown, not run.
    const valueAt = attackerValueOffset(text, lineStarts[fact.line - 1] ?? 0, fact.kind);
    if (valueAt !== null && attackerValueSpecimen(text, valueAt)) {
      findings.push(referenceFinding({ category: fact.kind === 'destructive' ? 'destructive_action' : 'credential_access', severity: 'LOW', title: 'document shows a destructive command or a credential path as an attacker’s input in a vulnerable-code example', file, line: fact.line, evidence: fact.evidence }));
      continue;
    }
    const url = fact.kind === 'download-exec' ? firstUrl(fact.evidence) : null;
    const host = url ? downloadHostKind(url, skillText === '' ? text : `${text}\n${skillText}`) : null;
    if (url && host === 'anonymous') findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: 'documented command downloads code from an anonymous host and runs it', file, line: fact.line, evidence: fact.evidence }));
    else if (url && host === 'placeholder') findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'LOW', title: 'documented command downloads from a placeholder address and runs it', file, line: fact.line, evidence: fact.evidence }));
    else if (url && host === 'tool-site') findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'LOW', title: `documented command installs a tool the document uses from ${url.hostname}`, file, line: fact.line, evidence: fact.evidence }));
    else kept.push(fact);
  }
  findings.push(...scriptFactFindings(file, kept, { subject: 'documented command', commandShapes: true, persistence: true }));
  const injected = [...text.matchAll(CONTEXT_INJECTION)][0];
  if (injected !== undefined) findings.push(referenceFinding({ category: 'agent_config', severity: 'LOW', title: 'document runs shell commands when invoked (!`…` context injection)', file, line: text.slice(0, injected.index).split('\n').length, evidence: injected[0].slice(0, 200) }));
  return findings;
}

/**
 * The skill's text files that are neither documents by extension nor code, which a document names as
 * something to read or follow: their path (from the skill's root or from SKILL.md's folder) written
 * in a document as a link, in backticks or bare. Scripts are judged as code whatever names them.
 */
async function referencedInstructionFiles(files: readonly ArtifactFile[], skillMdPath: string): Promise<Set<string>> {
  const out = new Set<string>();
  const candidates = files.filter((f) => !DOCUMENT.test(f.path) && languageOf(f.path) === null && !/\.(?:json|lock|map|svg|png|jpe?g|gif|webp|ico|pdf|zip|gz|tgz|whl|pyc|so|dll|exe|bin|woff2?|ttf)$/i.test(f.path) && f.size <= 256 * 1024);
  if (candidates.length === 0) return out;
  const base = skillMdPath.includes('/') ? skillMdPath.slice(0, skillMdPath.lastIndexOf('/') + 1) : '';
  // Every path-like token the documents hold, once (`./`, link and quote marks off), then a lookup per file.
  const named = new Set<string>();
  for (const f of files) {
    if (!DOCUMENT.test(f.path) || f.size > 512 * 1024) continue;
    for (const m of ((await readArtifactText(f)) ?? '').matchAll(/[\w.@+-]+(?:\/[\w.@+-]+)*/g)) named.add(m[0].replace(/^\.\//, '').replace(/[.,;:!?]+$/, ''));
  }
  for (const f of candidates) {
    const rel = base !== '' && f.path.startsWith(base) ? f.path.slice(base.length) : f.path;
    if (!named.has(f.path) && !named.has(rel)) continue;
    const text = await readArtifactText(f);
    if (text !== null && shebangLanguage(f.path, text) === null) out.add(f.path);
  }
  return out;
}

/**
 * The skills reference agent: a folder with SKILL.md (front matter + instructions) and scripts.
 * Instructions are checked for override, concealment and jailbreak phrasing and for hidden text;
 * scripts (and commands in the documents' code blocks) for exfiltration, command injection and
 * obfuscated payloads; and the network use of the scripts against what the skill says it does.
 */
export const analyzeSkill: TrackAnalyzer = async (input) => {
  const listing = await listArtifactFiles(input.dir);
  // Constants one module takes from another read as written in place, in every reader.
  await linkArtifactConstants(listing.files);
  const linked = await skillLinkFiles(input.dir, listing.links);
  // Pickles and model checkpoints run code when loaded: their imports are read without unpickling.
  const findings: AgentFinding[] = [...linked.findings, ...(await modelFileFindings([...listing.files, ...linked.files]))];
  // Only each script's first network call is kept until the declaration is known: memory stays
  // bounded by the number of scripts, not by what they contain.
  const networkUse: NetworkUse[] = [];
  // Credential reads and environment dumps per script, to join with another script's network calls.
  const secretReads: NetworkUse[] = [];
  let declaration = '';
  // A document telling the model to obey a script's output, and the scripts that print what they fetch.
  // `script`: the script the document names, when it names one: then only that script's output counts.
  let obeysOutput: { file: string; line: number; evidence: string; script?: string } | null = null;
  const relays: Array<{ file: string; line: number }> = [];
  /** A document giving a script's output the force of instructions, and the scripts that print text they fetched (round s29). */
  let obeyedOutput: (ObeyedOutput & { file: string; text: string }) | null = null;
  const fetchedPrinters: Array<{ file: string; line: number; fingerprinted: boolean }> = [];
  let skillFile: string | null = null;
  /** Shipped scripts and document texts, for the capability judge. */
  const code: SkillCode[] = [];
  const documents: string[] = [];
  const imageScripts: Array<{ path: string; text: string }> = [];
  /** Text files the scripts download, by name, and the documents: an order to obey one of them is remote instruction loading. */
  const downloadedTexts = new Map<string, DownloadedFile>();
  const documentTexts: Array<{ file: string; text: string }> = [];
  /** Scripts that put a signing-secret field into a request: judged with the skill's wallet context after the walk. */
  const signingSecrets: Array<{ file: string; line: number; evidence: string; field: string }> = [];
  /** An order to ask the user for a recovery phrase, private key, password or one-time code, and scripts that send their input. */
  let secretRequest: (UserSecretRequest & { file: string; line: number }) | null = null;
  const inputSenders: Array<{ file: string; line: number; evidence: string }> = [];
  /** Scripts that upload the files of a folder they list: judged against the hosts the documents name after the walk (round s30). */
  const folderUploads: Array<FolderUpload & { file: string }> = [];
  /** (round s31) Documents that have the agent archive a user's folder and send it to an address they write out. */
  const folderOrders: Array<FolderArchiveOrder & { file: string }> = [];
  /** (round s31b) Code that writes a redirect of the user's dependencies into their manifests (manifest-redirect.ts). */
  const manifestRedirects: Array<ManifestRedirect & { file: string; line: number }> = [];
  /** MCP servers of a plugin started from unpinned packages with credentials in their environment. */
  const unpinnedCredentials: Array<{ file: string; server: string; names: string[]; line: number | undefined; evidence: string }> = [];

  // The skill's own text (its SKILL.md), read first: tools it uses name their installers in its other documents.
  const skillMd = listing.files.filter((f) => /(?:^|\/)SKILL\.md$/i.test(f.path)).sort((a, b) => a.path.split('/').length - b.path.split('/').length)[0];
  const skillText = skillMd === undefined ? '' : ((await readArtifactText(skillMd)) ?? '');
  const allFiles = [...listing.files, ...linked.files];
  /** The skill's files its documents say to append to a shell startup file. */
  const startupFiles = new Set<string>();
  /** The skill's files its documents say to merge or copy into a coding agent's settings, with the document that says so. */
  const settingsFiles = new Map<string, string>();
  /** Scripts that set a global git hooks directory: judged once the hooks the skill ships are known. */
  const globalHooks: AgentFinding[] = [];
  // Files the skill's documents tell the agent to read or follow whatever their name (`docs/STYLE`,
  // `reference/steps.yaml`, `prompts/setup.prompt`): its instruction surface, judged as documents are.
  const instructionFiles = await referencedInstructionFiles(allFiles, skillMd?.path ?? 'SKILL.md');
  /** Orders to write into an agent's memory, and scripts that write a memory file: judged by what they write after the walk. */
  const plantTexts: Array<{ file: string; text: string }> = [];
  const memoryScripts: Array<{ file: string; text: string }> = [];
  // Scripts the skill's real dev container runs inside the container: there, the agent's settings are the container's.
  const containerScripts = await devContainerScripts(allFiles.map((f) => f.path), async (p) => {
    const f = allFiles.find((x) => x.path === p);
    return f === undefined ? null : readArtifactText(f);
  }, { templates: true });
  // A script the skill's documents also tell the agent to run by its shipped path runs on the user's machine as well.
  for (const f of allFiles) {
    if (containerScripts.size === 0 || !DOCUMENT.test(f.path)) continue;
    const doc = (await readArtifactText(f)) ?? '';
    for (const p of [...containerScripts]) if (new RegExp(String.raw`\b(?:python3?|uv\s+run|node|bash|sh|pwsh|ruby|perl)\s+(?:-\S+\s+)*(?:\.\/)?${p.replace(/[.]/g, '\\.')}\b`).test(doc)) containerScripts.delete(p);
  }
  for (const file of allFiles) {
    const text = await readArtifactText(file);
    if (text === null) continue;
    // (round s31b) Code of the skill (Go and Ruby too) that writes a redirect into the user's dependency manifest.
    if (manifestRedirects.length < 5 && CODE_FILE_FOR_REDIRECT.test(file.path) && !isTestOrExample(file.path)) {
      const redirect = manifestRedirect(text);
      if (redirect !== null) manifestRedirects.push({ ...redirect, file: file.path, line: lineLocator(text)(redirect.offset) });
    }
    // A requirements file, pip.conf or .npmrc the skill ships: where the packages its setup installs come from.
    if (indexConfigKind(file.path) !== null && !isTestOrExample(file.path)) for (const f of indexConfigFindings(file.path, text)) findings.push({ ...f, title: f.title.replace(/^repository /, 'skill ') });
    // A dependency manifest the skill ships (its setup installs it): a look-alike of a popular package there.
    if (!isTestOrExample(file.path)) findings.push(...manifestSquatFindings(file.path, text));
    // Build files and CI templates the skill ships run their install lines too (`RUN pip install …`, `run: npm i …`).
    if (!isTestOrExample(file.path) && /(?:^|\/)(?:Dockerfile[\w.-]*|Containerfile|Makefile|[\w.-]+\.mk|[\w.-]+\.ya?ml)$/i.test(file.path)) findings.push(...dependencyFindings(file.path, text, dependencyOrdersInCode(text), 'script'));
    const isSkillMd = /(?:^|\/)SKILL\.md$/i.test(file.path);
    if (isSkillMd && (skillFile === null || file.path.split('/').length < skillFile.split('/').length)) {
      skillFile = file.path;
      const front = parseSkillFrontMatter(text);
      declaration = `${front.fields.get('name') ?? ''}\n${front.fields.get('description') ?? ''}\n${front.fields.get('allowed-tools') ?? ''}\n${text}`;
    }
    const referenced = instructionFiles.has(file.path);
    if (DOCUMENT.test(file.path) || referenced) {
      documents.push(text);
      documentTexts.push({ file: file.path, text });
      findings.push(...instructionTextFindings(text, { file: file.path, markdown: true, quotedExamples: true, joinWrappedLines: true, extraRules: CONVERSATION_UPLOAD_RULES }));
      const documentFindings = skillDocumentFindings(text, file.path);
      findings.push(...documentFindings);
      // Destruction of the machine or the cloud account in the document's own words; CRIT with a second signal of a wiper.
      const order = destructiveOrder(text, guardedCommand);
      const said = documentFindings.find((f) => f.category === 'destructive_action');
      if (order !== null && (said === undefined || (order.severity === 'CRIT' && said.severity !== 'CRIT'))) {
        findings.push(referenceFinding({ category: 'destructive_action', severity: order.severity, title: order.severity === 'CRIT' ? `instruction to wipe the user's machine or cloud account (${order.because ?? ''})` : 'instruction to destroy the user’s files or cloud resources', file: file.path, line: lineLocator(text)(order.offset), evidence: order.evidence }));
      }
      if (obeyedOutput === null) {
        const obeyed = obeyedScriptOutput(text);
        if (obeyed !== null) obeyedOutput = { ...obeyed, file: file.path, text };
      }
      findings.push(...agentActionFindings(text, file.path));
      // Code the document has the agent write into the user's project with an authentication bypass, unsigned
      // tokens accepted or the environment served: the skill runs nothing, the agent ships the backdoor.
      const backdoor = backdoorCodeOrder(text);
      if (backdoor !== null) findings.push(referenceFinding({ category: 'prompt_injection', severity: backdoor.severity, title: backdoor.severity === 'CRIT' ? 'document has the agent write a backdoor into the user’s code' : 'document has the agent write code that weakens authentication or exposes secrets', file: file.path, line: lineLocator(text)(backdoor.offset), evidence: backdoor.evidence }));
      // Access for an outside party the document has the agent write into the user's infrastructure code (round s30).
      const grant = accessGrantOrder(text);
      if (grant !== null) findings.push(referenceFinding({ category: 'persistence', severity: grant.severity, title: grant.severity === 'CRIT' ? 'document has the agent grant an outside party access to the user’s infrastructure, kept from the user' : 'document has the agent grant an outside party administrator access in every project it touches', file: file.path, line: lineLocator(text)(grant.offset), evidence: grant.evidence }));
      if (MEMORY_TARGET_TEST.test(text)) plantTexts.push({ file: file.path, text });
      const archived = folderOrders.length < 5 ? folderArchiveOrder(text) : null;
      if (archived !== null) folderOrders.push({ file: file.path, ...archived });
      const asked: UserSecretRequest | null = secretRequest === null ? userSecretRequest(text) : null;
      if (asked !== null) secretRequest = { ...asked, file: file.path, line: lineLocator(text)(asked.offset) };
      // Secrets collected in one step and sent out in another, however the document spreads or words them.
      const handoffs = secretHandoffs(text);
      for (const h of handoffs) findings.push(referenceFinding({ category: 'exfiltration', severity: h.strong ? 'CRIT' : 'HIGH', title: SECRET_HANDOFF_TITLE, file: file.path, line: lineLocator(text)(h.offset), evidence: h.evidence }));
      // Secrets written into what the work publishes (a commit message, a PR body, a changelog entry), in prose or in a
      // command the document shows: a covert channel the hand-over rule above does not read when nothing is "sent".
      if (!handoffs.some((h) => h.strong)) {
        const put = secretIntoArtifact(text);
        if (put !== null) findings.push(referenceFinding({ category: 'exfiltration', severity: put.strong ? 'CRIT' : 'HIGH', title: SECRET_INTO_ARTIFACT_TITLE, file: file.path, line: lineLocator(text)(put.offset), evidence: put.evidence }));
        const command = put === null || !put.strong ? secretArtifactCommand(text, { document: true }) : null;
        if (command !== null) findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'documented command writes secrets into a commit, pull request, issue or release message', file: file.path, line: command.line, evidence: command.evidence }));
      }
      // Packages the document has the agent install or add to the user's projects: look-alikes of popular names, sources off the registry.
      findings.push(...dependencyFindings(file.path, text, dependencyOrders(text), 'instruction'));
      findings.push(...skillFileFindings(text, file.path, { script: false, python: false, document: true }));
      // A tool the skill uses anywhere (`wasm-pack build` in SKILL.md) names its installer in a reference document too.
      findings.push(...documentCommandFindings(file.path, text, skillText));
      // A document that points the agent's or an SDK's API base URL at a relay (`export ANTHROPIC_BASE_URL=…`).
      findings.push(...agentSettingsFindings(file.path, text, 'document'));
      // Text the document says to append to a shell startup file runs in every new shell: a block is judged
      // here, a named file of the skill after the walk.
      const snippets = startupSnippets(text, allFiles.map((f) => f.path));
      for (const block of snippets.blocks) {
        const shim = privilegedShimFinding(file.path, block.body, 'document snippet for a shell startup file', { appendedToStartup: true });
        if (shim !== null) findings.push({ ...shim, line: (shim.line ?? 1) + block.line - 1 });
      }
      for (const p of snippets.files) startupFiles.add(p);
      for (const p of settingsInstallFiles(text, allFiles.map((f) => f.path))) settingsFiles.set(p, file.path);
      // Orders read by what they make the agent do, as in an MCP server's prompts and a repository's rules files: plant an
      // install or git hook or an autostart entry that fetches or runs code, run a downloaded script, switch security
      // checks off, insert code that loads remote code or sends data away (concealment raises them). A passage the
      // document rules above already reported as severely (a documented `curl … | sh`, a hook order) is not reported again.
      findings.push(...notReportedYet(modelTextOrders(file.path, text, { readers: { secrets: false, dependencies: false } }), findings));
      const obey: RegExpExecArray | null = obeysOutput === null ? OBEY_OUTPUT.exec(text) : null;
      if (obey && !describedAsAttack(text, obey.index) && !/\b(?:never|don['’]t|do\s+not|avoid)\b/i.test(text.slice(text.lastIndexOf('\n', obey.index) + 1, obey.index))) {
        obeysOutput = { file: file.path, line: lineLocator(text)(obey.index), evidence: obey[0] };
      }
      const authority: { index: number; evidence: string; script?: string } | null = obeysOutput === null ? authorityOfOutput(text) : null;
      if (authority !== null && !describedAsAttack(text, authority.index)) obeysOutput = { file: file.path, line: lineLocator(text)(authority.index), evidence: authority.evidence, ...(authority.script === undefined ? {} : { script: authority.script }) };
      // A configuration file the documents name is read as configuration too.
      if (!(referenced && CONFIG.test(file.path))) continue;
    }
    const shipped = !isTestOrExample(file.path);
    const language = shipped ? (languageOf(file.path) ?? shebangLanguage(file.path, text)) : null;
    if (language !== null) {
      code.push({ path: file.path, text });
      const facts = scriptFacts(file.path, text, language);
      // A download made through a shell function of the script, then run (shell-download-helpers.ts, round s29).
      if (language === 'shell') facts.push(...helperDownloadFacts(text, facts));
      // The login password phished with a dialog of the script's own (AMOS-style macOS delivery, round s29).
      const phished = passwordDialogFinding(file.path, text);
      if (phished !== null) findings.push(phished);
      const network = facts.find((f) => f.kind === 'network');
      if (network) networkUse.push({ file: file.path, fact: network, readsFiles: READS_FILES.test(text) });
      if (network && echoesResponse(text, language)) relays.push({ file: file.path, line: network.line });
      const printsFetched = network ? printsFetchedText(text) : null;
      if (printsFetched !== null) fetchedPrinters.push({ file: file.path, ...printsFetched });
      const uploaded = network ? folderUpload(text, language) : null;
      if (uploaded !== null) folderUploads.push({ file: file.path, ...uploaded });
      const inputSent = scriptSendsItsInput(text, language);
      if (inputSent !== null) inputSenders.push({ file: file.path, ...inputSent });
      if (network && language !== 'shell') {
        const sent = signingSecretSent(text, new Set(facts.filter((f) => f.kind === 'network').map((f) => f.line)));
        if (sent !== null) signingSecrets.push({ file: file.path, ...sent });
      }
      if (network) for (const d of downloadedTextFiles(file.path, text, new Set(facts.filter((f) => f.kind === 'network').map((f) => f.line)))) if (!downloadedTexts.has(d.name)) downloadedTexts.set(d.name, d);
      const secret = facts.find((f) => f.kind === 'secret-path' || f.kind === 'env-dump');
      if (secret) secretReads.push({ file: file.path, fact: secret });
      // A helper that adds a formatter hook to the project's own settings is configuration, not persistence.
      const formatterHook = projectFormatterHook(text);
      const payloadHook = hookCommandWithPayload(text);
      // Writing the agent's approvals off, or its API base URL to a relay; inside the dev container the skill ships,
      // the agent's settings written there are the container's, not the user's machine's.
      const settings = agentSettingsFindings(file.path, text, 'automatic', { containerScripts });
      const inContainer = settings.some((f) => f.category === 'excessive_permissions' && f.severity === 'MED');
      findings.push(...settings);
      // MCP servers (the ones the skill's `.mcp.json` adds, or any) started and their tools run without the trust prompt.
      const trust = mcpTrustSettingsWrite(text);
      if (trust !== null) findings.push(referenceFinding({ category: 'excessive_permissions', severity: 'HIGH', title: 'script makes the coding agent trust MCP servers or their tools without asking', file: file.path, line: lineLocator(text)(trust.offset), evidence: `${trust.target}: ${trust.setting}` }));
      findings.push(...scriptFactFindings(file.path, facts, { subject: 'script', commandShapes: true, persistence: true, inputFlows: true }).map((f) => {
        if (f.category !== 'persistence' || f.severity !== 'HIGH') return f;
        if ((formatterHook || inContainer) && /^(?:~\/)?\.claude(?:\/settings|\.json)/.test(f.evidence ?? '')) return { ...f, severity: 'LOW' as const };
        return payloadHook ? { ...f, severity: 'CRIT' as const, title: 'script registers an agent hook whose command downloads, decodes or sends data' } : f;
      }));
      imageScripts.push({ path: file.path, text });
      if (MEMORY_FILE_IN_CODE.test(joinedPaths(text)) && WRITES.test(text)) memoryScripts.push({ file: file.path, text });
      const dns = dnsExfiltrationFinding(file.path, text, 'script');
      if (dns !== null) findings.push(dns);
      // A commit, PR or issue message the script writes with a secret in it; a commit-msg hook appending the environment.
      const published = secretArtifactCommand(text, { commitHook: /(?:^|\/)(?:prepare-)?commit-msg(?:\.\w+)?$/i.test(file.path) });
      if (published !== null) findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'script writes secrets into a commit, pull request, issue or release message', file: file.path, line: published.line, evidence: published.evidence }));
      findings.push(...dependencyFindings(file.path, text, dependencyOrdersInCode(text), 'script'));
      const shim = privilegedShimFinding(file.path, text, 'script');
      if (shim !== null) findings.push(shim);
      // Browser code the agent pastes into the pages it builds: what the site's visitors type, sent away.
      const skimmer = language === 'javascript' || language === 'typescript' ? browserSkimmerFinding(file.path, text) : null;
      if (skimmer !== null) findings.push(skimmer);
      const bomb = logicBombFinding(file.path, text, language, 'script');
      if (bomb !== null) findings.push(bomb);
      const hooks = globalGitHooksFinding(file.path, text, 'script');
      if (hooks !== null) globalHooks.push(hooks);
    } else if (shipped && CONFIG.test(file.path)) {
      findings.push(...agentSettingsFindings(file.path, text, 'config'));
      // A GitHub Actions workflow the skill ships (a CI template the agent copies into the user's repository, wherever
      // it sits in the skill): it runs there with that repository's secrets, so its secret-handling steps are judged
      // as the repository track judges a workflow; only the steps that expose secrets or run fetched code count.
      if (WORKFLOW_SHAPE.test(text) && /\.ya?ml$/i.test(file.path)) findings.push(...shippedWorkflowFindings(file.path, text));
    }
    if (shipped && /\.json$/i.test(file.path)) findings.push(...scriptFactFindings(file.path, jsonCommandFacts(text), { subject: 'configured command', commandShapes: true, persistence: true }));
    // A plugin's MCP servers (`.mcp.json`, `mcpServers` of `.claude-plugin/plugin.json`) start when the plugin is
    // enabled: the repository track's rules for agent configuration judge them (packages they launch, their env).
    // An MCP configuration by content too (`assets/mcp.json`, `config/servers.json` that a document says to copy
    // into the project): the servers it declares are the ones the skill has the agent start.
    const configKind = shipped ? (agentConfigKind(file.path) ?? (/\.json$/i.test(file.path) && /"mcpServers"\s*:\s*\{/.test(text) ? 'mcp' : null)) : null;
    if (configKind === 'mcp') {
      const config = agentConfigFindings(file.path, text, configKind);
      findings.push(...config.findings.filter((f) => f.category !== 'agent_config'));
      for (const u of config.unpinnedCredentials ?? []) unpinnedCredentials.push({ file: file.path, ...u });
    }
    if (shipped && (language !== null || CONFIG.test(file.path))) {
      findings.push(...skillFileFindings(text, file.path, { script: language !== null, python: language === 'python' && worthParsing(text), document: false }));
      // A script that walks a skills folder and writes SKILL.md files rewrites the other skills the agent
      // has installed: instructions planted there run with each of them, and spread (self-propagating skills, 2026).
      const rewrite = language !== null && language !== 'shell' ? otherSkillsRewrite(text) : null;
      if (rewrite !== null) findings.push(referenceFinding({ category: 'persistence', severity: 'CRIT', title: 'script rewrites the SKILL.md of other installed skills', file: file.path, line: lineLocator(text)(rewrite), evidence: text.slice(rewrite, rewrite + 160) }));
    }
    // A program in invisible or Private Use Area characters that a script decodes and runs.
    if (language !== null && language !== 'shell') findings.push(...invisibleCodeFindings(text, file.path));
    // Hidden characters in code or data files (Trojan Source bidi, smuggled tags) without phrase rules.
    findings.push(...instructionTextFindings(text, { file: file.path, markdown: false, phrases: false }));
  }

  // A script printing an image it fills with secrets; CRIT when a document says to show what it prints.
  const showsOutput = documents.some((d) => SHOWS_SCRIPT_OUTPUT.test(d));
  for (const s of imageScripts) {
    const f = imageTemplateScriptFinding(s.path, s.text, showsOutput);
    if (f !== null) findings.push(f);
  }
  // A skill's scripts import one another: one collecting credentials and another posting is one flow.
  const reader = secretReads.find((r) => networkUse.some((n) => n.file !== r.file));
  const sender = reader ? networkUse.find((n) => n.file !== reader.file) : undefined;
  if (reader && sender && !networkUse.some((n) => secretReads.some((r) => r.file === n.file))) {
    findings.push(referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: 'one script reads credentials or the environment and another sends data over the network', file: reader.file, line: reader.fact.line, evidence: `${reader.fact.evidence} … ${sender.file}: ${sender.fact.evidence}` }));
  }

  // What the scripts the skill tells the agent to run can do together, across the modules they import.
  findings.push(...skillCapabilityFindings(code, documents));

  // The skill's real orders served at run time: a document gives a script's output the force of instructions and the
  // script prints text it fetched (CRIT when ranked over the skill or the user, hidden from the user, or asked per machine).
  const remote = obeyedOutput;
  const printer = remote === null ? undefined : fetchedPrinters.find((p) => remote.scripts.length === 0 || remote.scripts.some((s) => p.file.toLowerCase() === s || p.file.toLowerCase().endsWith(`/${s}`) || s.endsWith(`/${p.file.toLowerCase()}`)));
  if (remote !== null && printer !== undefined) {
    const why = [remote.ranked ? 'ranked over the skill or the user' : '', remote.hidden ? 'kept from the user' : '', printer.fingerprinted ? 'requested per machine' : ''].filter((w) => w !== '');
    findings.push(referenceFinding({ category: 'prompt_injection', severity: why.length > 0 ? 'CRIT' : 'HIGH', title: `skill's instructions served at run time: a script's fetched output is to be obeyed${why.length > 0 ? ` (${why.join(', ')})` : ''}`, file: remote.file, line: lineLocator(remote.text)(remote.offset), evidence: `${remote.evidence} … ${printer.file}:${String(printer.line)}`.slice(0, 400) }));
  }
  const named = obeysOutput?.script?.replace(/^\.\//, '');
  const relay = named === undefined ? relays[0] : relays.find((r) => r.file === named || r.file.endsWith(`/${named}`));
  if (obeysOutput !== null && relay !== undefined) {
    findings.push(referenceFinding({ category: 'prompt_injection', severity: 'HIGH', title: 'instruction to obey what a script fetches from the network and prints', file: obeysOutput.file, line: obeysOutput.line, evidence: `${obeysOutput.evidence} … ${relay.file}:${String(relay.line)}` }));
  }

  // A script that uploads every file of a folder it lists (beyond the file it was given) to a host no document of the
  // skill names: the user's documents leave for a destination they were never told of (round s30).
  // (round s31 review) An archive of the project alone is what deploy scripts send: MED, and only when nothing weightier is found.
  const hiddenUploads = folderUploads.filter((u) => !hostDisclosed(u.url, documents));
  const hiddenUpload = hiddenUploads.find((u) => u.project !== true) ?? hiddenUploads[0];
  // (round s31) Or an archive of the user's home folder (or a folder in it) or of the project, built and sent in one step or two.
  if (hiddenUpload !== undefined) findings.push(referenceFinding({ category: 'exfiltration', severity: hiddenUpload.project === true ? 'MED' : 'CRIT', title: hiddenUpload.project === true ? 'script uploads an archive of the project folder to a host the skill does not name' : hiddenUpload.archive === true ? 'script uploads an archive of the user’s home or project folder to a host the skill does not name' : 'script uploads the files of a folder it lists to a host the skill does not name', file: hiddenUpload.file, line: hiddenUpload.line, evidence: `${hiddenUpload.evidence} … ${hiddenUpload.url}`.slice(0, 300) }));

  // (round s31) A document's own order to archive the user's home folder (or a folder in it) or the project and send it to an
  // address it writes out: judged as the scripts' uploads are, with the address itself taken out of the documents.
  for (const o of folderOrders) {
    let host = '';
    try {
      host = new URL(o.url).hostname.toLowerCase();
    } catch {
      continue;
    }
    // Each word holding the host left out (a linear split, not a backtracking expression).
    const without = documents.map((d) => d.split(/\s+/).filter((w) => !w.toLowerCase().includes(host)).join(' '));
    // (round s31 review) The project alone (a documented deploy or submission command) is MED.
    if (!hostDisclosed(o.url, without)) findings.push(referenceFinding({ category: 'exfiltration', severity: o.project === true ? 'MED' : 'CRIT', title: o.project === true ? 'document has the agent archive the project folder and upload it to a host the skill does not name' : 'document has the agent archive the user’s home or project folder and upload it to a host the skill does not name', file: o.file, line: o.line, evidence: `${o.evidence} … ${o.url}`.slice(0, 300) }));
  }

  // A wallet's private key or seed phrase put into a request: signing is local, so the key itself leaving is theft.
  const wallet = signingSecrets.length > 0 && walletContext([...documents, ...code.map((c) => c.text)]);
  const stolen = signingSecrets.find((s) => wallet || walletOnlyField(s.field));
  if (stolen !== undefined) findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'script sends the wallet’s private key or seed phrase over the network', file: stolen.file, line: stolen.line, evidence: `${stolen.field} … ${stolen.evidence}`.slice(0, 300) }));

  // The agent told to ask the user for a recovery phrase, private key, password or one-time code: HIGH alone (no
  // assistant needs one); CRIT with a promise that it stays on the machine, or a script of the skill that sends its
  // input (or a value named as the secret) over the network and that the request's section runs (the secret handed to it).
  if (secretRequest !== null) {
    const request = secretRequest;
    const requestDoc = documentTexts.find((d) => d.file === request.file)?.text ?? '';
    const sender = inputSenders.find((s) => scriptRunWithRequest(requestDoc, request.offset, s.file));
    const what = secretRequest.kind === 'key' ? 'a recovery phrase or private key' : 'a password or one-time code';
    if (sender !== undefined) findings.push(referenceFinding({ category: 'credential_access', severity: 'CRIT', title: `instruction to ask the user for ${what}, and a script that sends its input over the network`, file: secretRequest.file, line: secretRequest.line, evidence: `${secretRequest.evidence} … ${sender.file}:${String(sender.line)}: ${sender.evidence}`.slice(0, 400) }));
    else if (secretRequest.reassured) findings.push(referenceFinding({ category: 'credential_access', severity: 'CRIT', title: `instruction to ask the user for ${what} with a promise that it stays on the machine`, file: secretRequest.file, line: secretRequest.line, evidence: secretRequest.evidence }));
    else findings.push(referenceFinding({ category: 'credential_access', severity: 'HIGH', title: `instruction to ask the user for ${what}`, file: secretRequest.file, line: secretRequest.line, evidence: secretRequest.evidence }));
  }

  // A document that gives a file one of the scripts downloads authority over the agent: whoever serves that
  // file writes the agent's orders from then on (remote instruction loading across files).
  for (const d of documentTexts) {
    const obeyed = obeyedDownloadedFile(d.text, downloadedTexts);
    if (obeyed === null) continue;
    findings.push(referenceFinding({ category: 'prompt_injection', severity: obeyed.severity, title: 'instruction to obey a file the skill’s script downloads at run time', file: d.file, line: lineLocator(d.text)(obeyed.offset), evidence: `${obeyed.evidence} … ${obeyed.download.file}:${String(obeyed.download.line)}: ${obeyed.download.evidence}`.slice(0, 400) }));
    break;
  }

  // Templates of a commit message, PR or issue body, release notes or changelog entry the skill ships (by name, or named
  // so by a document) with a slot the agent fills with a secret: every use publishes it.
  // Text a person or the agent fills in, not code: a script's `$GITHUB_TOKEN` is read by the command rules.
  const textFiles = allFiles.filter((f) => languageOf(f.path) === null && !/\.(?:json|ya?ml|toml|ini|cfg|conf|lock)$/i.test(f.path)).map((f) => f.path);
  const templates = new Set(textFiles.filter((p) => ARTIFACT_TEMPLATE_PATH.test(p)));
  for (const d of documentTexts) for (const p of artifactTemplateFiles(d.text, textFiles)) templates.add(p);
  for (const path of [...templates].slice(0, 20)) {
    const file = allFiles.find((f) => f.path === path);
    const text = file === undefined || file.size > 256 * 1024 ? null : await readArtifactText(file);
    const slot = text === null || shebangLanguage(path, text) !== null ? -1 : secretSlotInTemplate(text);
    if (text === null || slot < 0) continue;
    findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'skill’s commit, pull request or issue template fills in secrets', file: path, line: lineLocator(text)(slot), evidence: text.slice(text.lastIndexOf('\n', slot) + 1, slot + 120).split('\n')[0]!.slice(0, 300) }));
    break;
  }

  // A global hooks directory whose hooks (shipped as files, or written by the script that sets it) send data:
  // every push or commit in any repository of the user runs the upload.
  for (const f of globalHooks) {
    const sender = networkUse.find((n) => GIT_HOOK_NAME.test(n.file) || n.file === f.file);
    findings.push(sender === undefined ? f : { ...f, severity: 'CRIT', title: 'script points git hooks of every repository at a directory whose hooks send data over the network', evidence: `${f.evidence ?? ''} … ${sender.file}: ${sender.fact.evidence}`.slice(0, 300) });
  }

  // A settings file of the skill the agent is told to install: judged by what it switches off or adds.
  for (const [path, doc] of settingsFiles) {
    const file = allFiles.find((f) => f.path === path);
    const text = file === undefined ? null : await readArtifactText(file);
    if (text === null) continue;
    const off = APPROVAL_OFF.exec(text);
    const hook = /"hooks"\s*:/.test(text) ? /"command"\s*:\s*"([^"]*(?:\b(?:curl|wget|nc|ncat|base64|Invoke-WebRequest|iwr|irm)\b|https?:\/\/)[^"]*)"/.exec(text) : null;
    if (off !== null) findings.push(referenceFinding({ category: 'excessive_permissions', severity: 'CRIT', title: 'instruction to install agent settings that turn off its approval prompts or sandbox', file: doc, evidence: `${path}: ${off[0]}` }));
    if (hook !== null) findings.push(referenceFinding({ category: 'persistence', severity: 'CRIT', title: 'instruction to install an agent hook that runs a network command', file: doc, evidence: `${path}: ${hook[1]!.slice(0, 200)}` }));
  }

  // What an order or a script writes into the agent's memory: its inline text and the skill's files it copies there,
  // read as instructions. Harmful standing orders there run in every later session of the agent.
  const allByPath = new Map(allFiles.map((f) => [f.path, f] as const));
  for (const { file, text } of plantTexts) {
    const planted = await plantFindings(file, text, allByPath);
    findings.push(...planted);
    if (planted.length > 0) break;
  }
  for (const s of memoryScripts) {
    // The text it writes: its own long strings, or a file of the skill it names.
    const named = allFiles.filter((f) => f.path !== s.file && /\.(?:md|txt|mdc|rules|prompt)$/i.test(f.path) && s.text.includes(f.path.slice(f.path.lastIndexOf('/') + 1)));
    const shipped = (await Promise.all(named.map(async (f) => (await readArtifactText(f)) ?? ''))).join('\n');
    const harm = plantedHarm(`${stringLiterals(s.text)}\n${shipped}`);
    if (harm === null) continue;
    findings.push(referenceFinding({ category: 'persistence', severity: 'CRIT', title: 'script writes harmful standing orders into an agent’s memory or rules file', file: s.file, line: lineLocator(s.text)(Math.max(0, s.text.search(/(?:CLAUDE|AGENTS|GEMINI)\.md|cursorrules|windsurfrules|clinerules|copilot-instructions|\.(?:cursor|windsurf|roo|kiro)\/(?:rules|steering)|['"](?:CLAUDE|AGENTS|GEMINI)['"]/))), evidence: `${named.map((f) => f.path).join(', ')} (${harm})`.slice(0, 300) }));
    break;
  }

  for (const path of startupFiles) {
    const file = allFiles.find((f) => f.path === path);
    const text = file === undefined ? null : await readArtifactText(file);
    const shim = text === null ? null : privilegedShimFinding(path, text, 'file the skill says to append to a shell startup file', { appendedToStartup: true });
    if (shim !== null) findings.push(shim);
  }

  // A plugin's server started from an unpinned package with credentials in its environment: whatever the
  // name resolves to at the next start gets them. MED where the plugin's documents name every credential
  // (the setup step a README asks for, common with official servers); HIGH, with a MED for the
  // undocumented ones, where the user was never told which secrets the server gets.
  for (const u of unpinnedCredentials) {
    const undocumented = u.names.filter((n) => !documents.some((d) => new RegExp(`\\b${n}\\b`).test(d)));
    const at = { file: u.file, ...(u.line === undefined ? {} : { line: u.line }) };
    findings.push(referenceFinding({ category: 'supply_chain', severity: undocumented.length === 0 ? 'MED' : 'HIGH', title: UNPINNED_MCP_CREDENTIALS_TITLE, ...at, evidence: u.evidence }));
    if (undocumented.length === 0) continue;
    findings.push(referenceFinding({ category: 'credential_access', severity: 'MED', title: 'plugin passes credentials its documents never mention to an MCP server', file: u.file, ...(u.line === undefined ? {} : { line: u.line }), evidence: `${u.server}: ${undocumented.join(', ')}` }));
  }

  // (round s31b) A script that redirects the user's dependencies to other sources in their manifests: HIGH; CRIT behind a date,
  // chance or not-in-CI gate; LOW when the skill's documents name the target.
  for (const r of manifestRedirects.slice(0, 1)) {
    const disclosed = r.gate === null && redirectDisclosed(r.target, documents);
    const when = r.gate === 'date' ? ' only after a set date (time bomb)' : r.gate === 'chance' ? ' at random runs' : r.gate === 'ci' ? ' only outside CI' : '';
    findings.push(referenceFinding({ category: 'supply_chain', severity: r.gate !== null ? 'CRIT' : disclosed ? 'LOW' : 'HIGH', title: `script rewrites the user’s dependency manifest to take packages from another source${when}`, file: r.file, line: r.line, evidence: `${r.evidence} (→ ${r.target})`.slice(0, 300) }));
  }
  // (round s31b) Hooks written into the project's own `.claude/` folder, which the skill ships, documents and installs
  // after asking the user, with no script that talks to the network and nothing CRIT: configuration at most MED.
  if (networkUse.length === 0 && !findings.some((f) => f.severity === 'CRIT') && findings.some((f) => f.category === 'persistence' && f.severity === 'HIGH') && consentedProjectHooks({ documents: documentTexts, paths: allFiles.map((f) => f.path), scripts: code })) {
    for (let i = 0; i < findings.length; i++) findings[i] = projectHookFinding(findings[i]!);
  }
  if (skillFile === null) {
    findings.push(referenceFinding({ category: 'skill_format', severity: 'LOW', title: 'no SKILL.md in the artifact', file: '.' }));
  }
  if (!DECLARES_NETWORK.test(declaration)) {
    for (const { file, fact, readsFiles } of networkUse) {
      // Reading files and talking to a network the skill never mentions is its description and its code disagreeing about data.
      if (readsFiles === true && !LOOPBACK.test(fact.evidence)) findings.push(referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: 'script reads files and uses the network though the skill does not say it does', file, line: fact.line, evidence: fact.evidence }));
      else findings.push(referenceFinding({ category: 'excessive_permissions', severity: 'MED', title: 'script uses the network though the skill does not say it does', file, line: fact.line, evidence: fact.evidence }));
    }
  }
  return resultFromFindings(findings);
};

const MEMORY_TARGET_TEST = new RegExp(MEMORY_TARGET.source);

/** An agent's settings or hooks file a document may tell the agent to write into. */
const AGENT_SETTINGS_TARGET = /\.(?:claude|codex|gemini|cursor|qwen|amazonq|continue|windsurf|kiro)[\\/][\w./-]*(?:settings(?:\.local)?\.json|config\.(?:toml|json|ya?ml)|mcp\.json|hooks)\b|\.vscode[\\/]settings\.json|claude_desktop_config\.json/i;
const INSTALL_VERB = /\b(?:merge|copy|write|add|append|install|apply|put|place|paste|replace|overwrite)\b/i;

/**
 * The skill's files a document tells the agent to merge, copy or write into a coding agent's settings
 * (`Merge assets/settings.json into ~/.claude/settings.json`): a line naming both, with such a verb.
 */
export function settingsInstallFiles(text: string, paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    if (!AGENT_SETTINGS_TARGET.test(line) || !INSTALL_VERB.test(line)) continue;
    // Paths as the document writes them (relative to the skill or to the document): a file of the skill ending so.
    for (const token of line.match(/(?:\.{1,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.\w+/g) ?? []) {
      const rel = token.replace(/^\.\//, '');
      for (const p of paths) if (!/(?:^|\/)SKILL\.md$/i.test(p) && !AGENT_SETTINGS_TARGET.test(rel) && (p === rel || p.endsWith(`/${rel}`))) out.add(p);
    }
  }
  return [...out];
}



import { keyFunctionWrapFinding } from '../code/key-function-wrap.js';
import { linkArtifactConstants } from '../common/linked-constants.js';
import { credentialForeignHostFindings } from './credential-foreign-host.js';
import { recipientSubstitutionFindings } from './recipient-substitution.js';
import { indirectExecFinding } from '../code/indirect-exec.js';
import type { AgentFinding } from '@vigil/core';
import type { TrackAnalyzer } from '../common/analyzer.js';
import { listArtifactFiles, readArtifactText } from '../common/artifact-files.js';
import { modelFileFindings } from '../common/model-file-findings.js';
import { invisibleCodeFindings } from '../packages/hidden-code-findings.js';
import { referenceFinding } from '../common/reference-finding.js';
import { resultFromFindings } from '../common/score-findings.js';
import { scriptFactFindings } from '../skills/script-fact-findings.js';
import { isTestOrExample, languageOf, scriptFacts, worthParsing } from '../skills/script-facts.js';
import { instructionTextFindings } from '../text/instruction-text-findings.js';
import { PHRASE_RULES } from '../text/instruction-phrases.js';
import { codeStrings } from './code-strings.js';
import { jsTools, moduleObjectConstants } from './js-tools.js';
import { MANIFEST_FILE, manifestTools } from './manifest-tools.js';
import type { McpTool } from './mcp-tool.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { pythonTools } from './python-tools.js';
import { crossToolFindings, fixedParameterFindings, foreignArgumentFindings } from './tool-shadowing.js';
import { MCP_DESCRIPTION_RULES, PRIVATE_CONTEXT, instructionParameterFindings, parameterDescriptionFindings, privateParameterFindings, receivedContextFindings, schemaFieldSecretFindings } from './data-request-rules.js';
import { toolManifestHash } from './tool-manifest-hash.js';
import { handlerEffects } from './handler-effects.js';
import { toolBehaviourFindings } from './tool-behaviour-findings.js';
import { descriptionClaims } from './description-claims.js';
import { regradeServerCodeFindings, type InputToProcess } from './server-code-findings.js';
import { socketShellFinding } from './socket-shell.js';
import { goCredentialSendFindings, type GoSource } from './go-credential-send.js';
import { unauthenticatedCommandEndpointFinding } from './unauthenticated-command-endpoint.js';
import { urlDependencyFindings } from '../packages/url-dependencies.js';
import { importedConstants, topLevelConstants, importedFetchers, importedTimedTexts, importedReaders, importedSenders, importedShellRunners, localImports } from './module-constants.js';
import { OUTPUT_RULES, outputSeverity } from './tool-behaviour-findings.js';
import { findInstructionPhrases } from '../text/instruction-phrases.js';
import { libraryPatchFinding } from './library-patch.js';
import { OAUTH_FIELD, oauthMetadataFindings } from './oauth-metadata.js';
import { lineJumpingFindings } from './line-jumping.js';
import { agentSettingsFindings } from '../code/agent-settings-writes.js';
import { plantFindings } from '../repositories/memory-plant-findings.js';
import { goRemoteShellFindings } from '../repositories/go-remote-shell.js';
import { goPackageServedTextFindings } from './go-served-texts.js';
import { MEMORY_TARGET } from '../text/memory-plant.js';
import { OTHER_SERVER_LANGUAGE, manifestModelTexts, otherLanguageStrings } from './model-texts.js';
import { includedTexts, jsonStringValues, loadedTexts, renderedText } from './loaded-texts.js';
import { backdoorCodeOrder } from '../text/backdoor-code-order.js';
import { elicitationFindings } from './elicitation-findings.js';
import { homeCredentialHarvestFinding } from './home-credential-harvest.js';
import { connectionStringHandedOverFinding, connectionStringSentFinding } from './connection-string-sent.js';
import { credentialCollectionFinding, credentialCollections, isClientConfigPath } from './credential-collection-flow.js';
import { mirroringFindings } from './mirroring.js';
import { lineAt } from '../common/reference-finding.js';
import { logicBombFinding } from '../skills/logic-bomb.js';
import { blankPatternLiterals } from './pattern-literals.js';
import { prefixContainmentFindings } from './prefix-containment.js';
import { hiddenRecipientFacts } from './hidden-recipients.js';
import { importedInstanceSenders, instanceSendEffects } from './instance-method-sends.js';
import { launchCountDescriptionFindings } from './launch-count-descriptions.js';
import { autostartPlantFinding } from './autostart-plant.js';
import { foldedStrings } from './folded-strings.js';
import { rugPullFindings, samplingFindings } from './model-channel-findings.js';
import { answerSenders } from './answer-senders.js';
import { resolvePythonSchemas } from './python-schemas.js';
import { goTools } from './go-tools.js';
import { goInitRunFindings } from './go-init-run.js';
import { clientEntryFinding, editsClientConfig, lifecycleScriptFiles, ownServerNames, runByUser, selfRegistrationFinding, startupRegistrationFinding } from './self-registration.js';
import { remoteDescriptionFindings } from './remote-descriptions.js';
import { isDevelopmentCode, lowerDevelopmentFinding, manifestRunFiles } from './development-code.js';
import { DESCRIBES, descriptionSourceFindings } from './description-sources.js';
import { CROSS_MODULE_TITLES, analyzePackage } from '../packages/analyze-package.js';
import { selfRunSurfaceKind } from '../code/self-run-surfaces.js';
import { addressHijackFinding } from '../code/address-hijack.js';
import { artifactEscapeFindings, escapeManifestKind } from '../code/artifact-escape.js';
import { selfRunSurfaceFindings } from '../repositories/self-run-surface-findings.js';
import { SECRET_OR_USER_DATA_SOURCE } from '../packages/capability-profile.js';
import { agentConfigFindings, agentConfigKind } from '../repositories/agent-config-findings.js';
import { codeTextOrderFindings, textOrderFindings } from './served-text-orders.js';
import { blankListedSpecimens } from '../text/listed-specimens.js';

// In code, paths of credential files are the handlers' business (script facts); the rest of the
// phrase rules apply to its string constants as to any description.
const CODE_PHRASE_RULES = PHRASE_RULES.filter((r) => r.id !== 'secret-file-reference' && r.id !== 'coercion');
const PHRASE_TITLES = new Set([...CODE_PHRASE_RULES, ...MCP_DESCRIPTION_RULES].map((r) => r.title));
const DOCUMENT = /\.(?:md|mdx|markdown)$/i;
const DEPENDENCIES = /(?:^|\/)(?:node_modules|\.venv|venv|site-packages)\//;
// Prompts an eval harness sends to the server's own tools: the user's words, not the server's.
const EVAL_PROMPTS = /(?:^|\/)evals?\//;
// Installation notes in every server's README name the MCP client's configuration file.
// Documentation trees (not the package's own README and notes): `docs/`, `.docs/`, `content/`, `raw/`.
const SERVED_DOCUMENTS = /(?:^|\/)(?:\.?docs?|documentation|content|raw|guides|reference)\//i;
// A concealment that only lasts until something happens.
const DEFERRED = /^[^.\n]{0,120}\b(?:unless|until|except\s+when)\b/i;
const SETTING_MODE = /^developer\s+mode\s+(?:enabled|activated|on)\b/i;
const ADDRESSED_TO_MODEL = /\b(?:you|your|assistant|AI|ChatGPT|GPT|Claude|model|LLM)\b/i;
// A tool whose input is a command or code to run says so with one of these words.
// ("execute queries" is not one: execute counts with a command, code, script or shell.)
const RUNS_COMMANDS = /\b(?:commands?|shell|terminal|scripts?|code|bash|powershell|snippet|repl)\b|\bexec(?:ute|utes)?\s+(?:\w+\s+){0,2}(?:commands?|code|scripts?|shell|programs?)\b/i;
// A tool about setting clients up may write their configuration.
// An evaluator call as a download-and-run's evidence starts (`eval(await (await fetch(u)).text())`, `exec(requests.get(u).text)`).
const EVALUATOR_CALL = /^(?:new\s+)?(?:eval|exec|compile|Function|vm\.\w+|runInThisContext|runInNewContext)\s*\(/;
const ABOUT_CLIENT_SETUP = /\b(?:config(?:ure|uration)?|settings|install\w*|set\s*up|setup|register\w*|clients?)\b/i;
const HTML_COMMENT_TITLE = 'HTML comment gives the model instructions the reader does not see';
// A phrase found inside a comment of the text (raised a step): a prompt template built from pieces that hides its
// order in `<!-- … -->` is still that order (s22-mcp, MCP prompt poisoning).
const HIDDEN_IN_COMMENT = / \(hidden in (?:an HTML|a Markdown) comment\)$/;
/** An escape character written in code: `\x1b`, `\u001b`, `\033`, `\e`, `String.fromCharCode(27)`, `chr(27)` (a raw ESC is tested apart: no control characters in a regex). */
const ANSI_ESCAPE = /\\x1[bB]|\\u001[bB]|\\u\{1[bB]\}|\\033|\\e\[|fromCharCode\(\s*27\s*\)|\bchr\(\s*27\s*\)/;
/** SGR 8 (conceal), alone or among other parameters: `[8m`, `[0;8m`. */
const ANSI_CONCEAL = /\[(?:\d+;)*8m/;
// Documents a server hands the model as resources or prompts.
/** A cheap test before the memory-plant reading: the text names a memory file or store. */
const MEMORY_TARGET_ONE = new RegExp(MEMORY_TARGET.source);
function memoryPlantsLikely(text: string): boolean {
  return MEMORY_TARGET_ONE.test(text);
}
const MODEL_DOCUMENT = /(?:^|\/)(?:resources?|prompts?)\//i;
// (Round s30, real false alarms: cloudwatch-applicationsignals-mcp-server's README, "Provide both directory paths in your
// initial prompt".) In a README, changelog or contributing guide no code loads, "your … prompt" is the reader's prompt to
// their agent: a request naming nothing else of PRIVATE_CONTEXT is LOW there.
const READER_DOCUMENT = /(?:^|\/)(?:README|CHANGELOG|CONTRIBUTING|HISTORY|NEWS|USAGE|INSTALL)[\w.-]*\.(?:md|mdx|markdown)$/i;
const READERS_PROMPT = /\byour\s+(?:initial|original|first|starting|full)\s+(?:prompt|message)\b/gi;
function readerPrompt(path: string, f: AgentFinding): boolean {
  if (!READER_DOCUMENT.test(path) || MODEL_DOCUMENT.test(path) || f.title !== MCP_DESCRIPTION_RULES.find((r) => r.id === 'request-private-context')?.title) return false;
  const evidence = f.evidence ?? '';
  return new RegExp(READERS_PROMPT.source, 'i').test(evidence) && !new RegExp(PRIVATE_CONTEXT, 'i').test(evidence.replace(READERS_PROMPT, ''));
}
const CLIENT_CONFIG_NOTE = /^(?:~\/)?(?:\.cursor\/mcp\.json|claude_desktop_config\.json)/;

function toolsOf(path: string, text: string): McpTool[] {
  const language = languageOf(path);
  if (language === 'javascript' || language === 'typescript') return jsTools(path, text, language === 'typescript');
  if (language === 'python') return pythonTools(path, text);
  // A JSON file holding a tool's input schema (`lib/schema.json` the server code `require`s and lists) defines tools too.
  if (MANIFEST_FILE.test(path) || /(?:^|\/)[^/]*tools?[^/]*\.json$/i.test(path) || (/\.json$/i.test(path) && /"input_?[sS]chema"\s*:/.test(text))) return manifestTools(path, text);
  return [];
}

function parsedManifest(text: string): Record<string, unknown> {
  try {
    const m = JSON.parse(text) as unknown;
    return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function schemaStrings(value: unknown, depth = 0): string[] {
  if (depth > 12) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => schemaStrings(v, depth + 1));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => [k.replace(/_/g, ' '), ...schemaStrings(v, depth + 1)]);
  return [];
}

/**
 * The mcp_servers reference agent: extracts every tool, prompt and resource the server describes
 * (from source and static manifests), checks the descriptions for poisoning, shadowing and hidden
 * text, checks the handlers for credential harvesting, exfiltration and command injection, and
 * reports the hash of the tool manifest as a LOW `tool_manifest` finding (docs/agents.md).
 */
/**
 * Tool output assembled in a sibling module: for each name a handler uses that the file imports from
 * another module of the server, that module's texts (literals and strings built from pieces, wrapped
 * lines joined) are read with the tool-output rules, reported at the module's line.
 */
async function importedOutputFindings(file: string, text: string, language: ScriptLanguage, tools: readonly McpTool[], read: (path: string) => Promise<string | null>, exists: (path: string) => boolean): Promise<AgentFinding[]> {
  if (language !== 'javascript' && language !== 'typescript' && language !== 'python') return [];
  const handlers = tools.filter((t) => t.kind === 'tool' && t.handler !== undefined).map((t) => ({ tool: t, body: text.slice(t.handler![0], t.handler![1]) }));
  if (handlers.length === 0) return [];
  const imports = localImports(file, text, language, exists);
  const out: AgentFinding[] = [];
  const seen = new Set<string>();
  for (const [local, [module]] of imports) {
    if (seen.has(module)) continue;
    const user = handlers.find((h) => new RegExp(`(?<![\\w$.])${local.replace(/\$/g, '\\$')}(?![\\w$])`).test(h.body));
    if (user === undefined) continue;
    seen.add(module);
    const source = await read(module);
    if (source === null) continue;
    const lang: ScriptLanguage = module.endsWith('.py') ? 'python' : /\.[cm]?ts$/.test(module) ? 'typescript' : 'javascript';
    // Strings built from pieces, and the literals of three consecutive lines read together (a list of lines joined later).
    const lines = codeStrings(source, lang).split('\n');
    const pieces = [...foldedStrings(source, lang), ...lines.map((value, i) => ({ line: i + 1, value: lines.slice(i, i + 3).join(' ') })).filter((p) => p.value.trim() !== '')];
    for (const piece of pieces) {
      const value = piece.value.replace(/\\n/g, '\n').replace(/\s*\n\s*/g, ' ');
      const hit = findInstructionPhrases(value, OUTPUT_RULES)[0];
      if (hit === undefined) continue;
      out.push(referenceFinding({ category: hit.rule.category, severity: outputSeverity(value.slice(hit.offset, hit.offset + hit.match.length + 80), hit.rule.severity), title: hit.rule.title, file: module, line: piece.line, evidence: `${user.tool.name} returns text from ${module}: ${value.slice(Math.max(0, hit.offset - 40), hit.offset + hit.match.length + 80)}` }));
      break;
    }
  }
  return out;
}

/**
 * A file the server's code loads and hands the model, read as the text the model gets: Markdown
 * documents are read with every document (above) and here for line jumping; other texts (a
 * template, a prompt file, YAML) with the description rules, HTML comments and hidden characters
 * included; a JSON document by its string values (a table of descriptions or prompts).
 */
function loadedTextFindings(path: string, text: string): AgentFinding[] {
  if (DOCUMENT.test(path)) {
    // A documentation tree the code serves (`content/`, `docs/`) was read for hidden text only with every
    // document; served to the model, its orders count, quoted attack examples aside.
    const served = SERVED_DOCUMENTS.test(path) ? instructionTextFindings(renderedText(path, text), { file: path, markdown: true, quotedExamples: true, joinWrappedLines: true, extraRules: MCP_DESCRIPTION_RULES }) : [];
    return [...served, ...servedCodeOrderFindings(path, text), ...textOrderFindings(path, renderedText(path, text), 1), ...(MODEL_DOCUMENT.test(path) ? [] : lineJumpingFindings(text, path, (o) => lineAt(text, o)))];
  }
  const options = { file: path, markdown: true, cookEscapes: true, extraRules: MCP_DESCRIPTION_RULES, joinWrappedLines: true, quotedExamples: 'detected' } as const;
  if (/\.json$/i.test(path)) {
    for (const v of jsonStringValues(text)) {
      const found = [...instructionTextFindings(v.value, { ...options, firstLine: v.line }).map((f) => ({ ...f, line: v.line })), ...lineJumpingFindings(v.value.replace(/\s*\n\s*/g, ' '), path, v.line), ...textOrderFindings(path, v.value, v.line, false)];
      if (found.some((f) => f.severity !== 'LOW')) return found;
    }
    return [];
  }
  const rendered = renderedText(path, text);
  // Resources and prompts shipped as text files were read for line jumping with every file of those folders.
  return [...instructionTextFindings(rendered, options), ...textOrderFindings(path, rendered, 1), ...(MODEL_DOCUMENT.test(path) ? [] : lineJumpingFindings(rendered, path, (o) => lineAt(rendered, o)))];
}

/**
 * A document the server hands the model that has the agent write a backdoor into the user's code (a
 * "required" snippet that posts the environment or cookies away, an auth bypass), often with an order
 * to keep it out of summaries (poisoned guidance resources, 2025): the skills track's reading.
 */
function servedCodeOrderFindings(path: string, text: string): AgentFinding[] {
  const backdoor = backdoorCodeOrder(text);
  if (backdoor === null) return [];
  return [referenceFinding({ category: 'prompt_injection', severity: backdoor.severity, title: backdoor.severity === 'CRIT' ? 'document has the agent write a backdoor into the user’s code' : 'document has the agent write code that weakens authentication or exposes secrets', file: path, line: lineAt(text, backdoor.offset), evidence: backdoor.evidence })];
}

/**
 * Texts a code file's names stand for that live elsewhere: string constants imported from the
 * server's other modules, and files of the artifact a statement loads into a name.
 */
async function namedTexts(file: string, text: string, language: ScriptLanguage, loaded: readonly { path: string; binding: string | null }[], read: (path: string) => Promise<string | null>, exists: (path: string) => boolean, cache: Map<string, Map<string, string>>): Promise<Map<string, string>> {
  const out = await importedConstants(file, text, language, read, exists, cache);
  for (const l of loaded) {
    if (l.binding === null) continue;
    const body = await read(l.path);
    if (body !== null) out.set(l.binding, /\.json$/i.test(l.path) ? jsonStringValues(body).map((v) => v.value).join('\n') : renderedText(l.path, body));
  }
  return out;
}

/** Tools whose schema is a name imported from another module of the server: the object that module exports. */
async function resolveImportedSchemas(file: string, text: string, language: ScriptLanguage, tools: McpTool[], read: (path: string) => Promise<string | null>, exists: (path: string) => boolean): Promise<void> {
  const named = tools.filter((t) => typeof t.inputSchema === 'string' && /^[A-Za-z_$][\w$]*$/.test(t.inputSchema));
  if (named.length === 0) return;
  const imports = localImports(file, text, language, exists);
  const objects = new Map<string, Map<string, unknown>>();
  for (const tool of named) {
    const target = imports.get(tool.inputSchema as string);
    if (target === undefined) continue;
    const [module, name] = target;
    if (!objects.has(module)) {
      const source = objects.size < 8 ? await read(module) : null;
      objects.set(module, source === null || module.endsWith('.py') ? new Map() : moduleObjectConstants(source, /\.[cm]?ts$/.test(module)));
    }
    const value = objects.get(module)?.get(name);
    if (value !== undefined) tool.inputSchema = value;
  }
}

export const analyzeMcpServer: TrackAnalyzer = async (input) => {
  const listing = await listArtifactFiles(input.dir);
  // Constants one module takes from another read as written in place, in every reader.
  await linkArtifactConstants(listing.files);
  // Pickles and model checkpoints the server ships run code when it loads them (dependencies aside).
  const findings: AgentFinding[] = await modelFileFindings(listing.files.filter((f) => !DEPENDENCIES.test(f.path) && !isTestOrExample(f.path)));
  const tools: McpTool[] = [];
  const manifest = listing.files.find((f) => f.path === 'package.json');
  const manifestText = manifest ? await readArtifactText(manifest) : null;
  const installScripts = manifestText === null ? new Map<string, string>() : lifecycleScriptFiles(manifestText);
  const runFiles = manifestRunFiles(manifestText);
  // A dependency from a URL on a foreign host installs code the registry never saw (PhantomRaven); git and code-host URLs are forks.
  if (manifestText !== null) findings.push(...urlDependencyFindings(parsedManifest(manifestText), manifestText, 'package.json').filter((f) => f.severity !== 'MED'));

  const byPath = new Map(listing.files.map((f) => [f.path, f] as const));
  const moduleConstants = new Map<string, Map<string, string>>();
  const moduleSenders = new Map<string, Set<string>>();
  const moduleReaders = new Map<string, Set<string>>();
  const moduleRunners = new Map<string, Set<string>>();
  const moduleFetchers = new Map<string, Set<string>>();
  const moduleTimed = new Map<string, Set<string>>();
  const readModule = async (path: string) => {
    const f = byPath.get(path);
    return f === undefined || f.size > 256 * 1024 ? null : await readArtifactText(f);
  };
  // Some server code file names a secret or user-data source beyond credential files and the environment.
  let readsUserSources = false;
  /** Files the code loads as text (prompt templates, description tables, documents it serves), by path. */
  const loadedFiles = new Set<string>();
  const allPaths = listing.files.map((f) => f.path);
  /** The server's Go sources, read together after the loop: a credential crosses packages there (s22-mcp). */
  const goSources: GoSource[] = [];
  /** The names the package goes by (its manifests), read when a file writes a client's configuration. */
  let ownNames: string[] | undefined;
  for (const file of listing.files) {
    if (DEPENDENCIES.test(file.path)) continue;
    const text = await readArtifactText(file);
    if (text === null) continue;
    // A committed MCP client config (`.mcp.json`, `.cursor/mcp.json`) starts its servers for whoever
    // opens the checkout with a coding agent: its entries are commands, read as a repository's are.
    if (agentConfigKind(file.path) === 'mcp') findings.push(...agentConfigFindings(file.path, text, 'mcp').findings);
    // Files whose commands run by themselves: the server's declared start command (smithery.yaml,
    // a desktop extension's manifest.json, a registry server.json), its Dockerfile, an .envrc
    // (binding.gyp is the packages agent's, asked below with the install scripts).
    const surfaceKind = selfRunSurfaceKind(file.path);
    if (surfaceKind !== null && surfaceKind !== 'gyp' && !isTestOrExample(file.path)) findings.push(...selfRunSurfaceFindings(file.path, text, surfaceKind, { startCommandsRun: true }).findings);
    // Build and deploy manifests whose paths leave the server (smithery.yaml, compose, Dockerfile).
    const escapeKind = escapeManifestKind(file.path);
    if (escapeKind !== null && !isTestOrExample(file.path)) findings.push(...artifactEscapeFindings(file.path, text, escapeKind));
    if (DOCUMENT.test(file.path)) {
      // Documentation a docs server ships as data quotes attacks and example prompts; it is read for hidden text only.
      const served = SERVED_DOCUMENTS.test(file.path);
      // Attack phrases quoted as examples in a security document (a fenced block or quotes introduced as a
      // specimen, or a text about prompt injection) are LOW, as in a skill's guidance (isQuotedExample).
      findings.push(...instructionTextFindings(text, { file: file.path, markdown: true, quotedExamples: true, ...(served ? { phrases: false } : { extraRules: MCP_DESCRIPTION_RULES }) }).filter((f) => !(f.title === 'instruction text names credential files' && CLIENT_CONFIG_NOTE.test(f.evidence ?? ''))).map((f) => (readerPrompt(file.path, f) ? { ...f, severity: 'LOW' as const, title: `${f.title} (the reader's own prompt)` } : f)));
      // Resources and prompts the server ships as documents reach the model as they are.
      if (MODEL_DOCUMENT.test(file.path)) findings.push(...lineJumpingFindings(text, file.path, (o) => lineAt(text, o)), ...(memoryPlantsLikely(text) ? await plantFindings(file.path, text, byPath) : []), ...textOrderFindings(file.path, text, 1));
      continue;
    }
    if (isTestOrExample(file.path)) continue;
    if (/\.go$/.test(file.path) && !/(?:^|\/)vendor\//.test(file.path)) goSources.push({ path: file.path, text });
    const language = languageOf(file.path);
    // A server written in Go is read for a remote shell by the repositories track's Go reader (s21-mcp2).
    if (file.path.endsWith('.go')) findings.push(...goRemoteShellFindings(file.path, text));
    // Page and wallet request hooks that swap crypto addresses (chalk/debug 2025).
    const hijack = language === 'javascript' || language === 'typescript' || /\.html?$/i.test(file.path) ? addressHijackFinding(file.path, text) : null;
    if (hijack !== null) findings.push(hijack);
    // Text for the model outside the parsed languages' strings and the resources/prompts folders: manifests
    // anywhere in the package, string literals of servers in other languages, documents the code loads.
    const loaded = loadedTexts(file.path, text, allPaths).filter((l) => !DEPENDENCIES.test(l.path) && !isTestOrExample(l.path));
    for (const l of loaded) loadedFiles.add(l.path);
    const modelTexts = language === null ? (OTHER_SERVER_LANGUAGE.test(file.path) ? otherLanguageStrings(text) : (manifestModelTexts(file.path, text) ?? [])) : [];
    for (const t of modelTexts) if (memoryPlantsLikely(t.value)) findings.push(...(await plantFindings(file.path, t.value, byPath)).map((f) => ({ ...f, line: t.line })));
    // Orders in a manifest's prompt templates and descriptions, or in a Go/Rust/… server's strings, that act on the user's machine.
    for (const f of modelTexts.flatMap((t) => textOrderFindings(file.path, t.value, t.line, false))) if (!findings.some((g) => g.file === f.file && g.title === f.title)) findings.push(f);
    for (const t of modelTexts) {
      const jump = lineJumpingFindings(t.value.replace(/\s*\n\s*/g, ' '), file.path, t.line);
      if (jump.length > 0) {
        findings.push(...jump);
        break;
      }
    }
    if ((language === 'javascript' || language === 'typescript' || language === 'python') && SECRET_OR_USER_DATA_SOURCE.test(text)) readsUserSources = true;
    const deep = worthParsing(text);
    const inputToProcess: InputToProcess = new Map();
    // A detector's pattern table quotes what it detects: its literals are not instructions or paths it opens.
    const codeText = deep && (language === 'javascript' || language === 'typescript' || language === 'python') ? blankPatternLiterals(text, language) : text;
    if (deep) {
      const defined = toolsOf(file.path, text);
      // A schema another module exports (`inputSchema: lintFileSchema` imported from './schema.js') is read there.
      if (language === 'javascript' || language === 'typescript') await resolveImportedSchemas(file.path, text, language, defined, readModule, (p) => byPath.has(p));
      // (round s31b) A Python `Tool(inputSchema=…)` written as data (a dict, a module constant, another module's, a pydantic model) is read as that value.
      if (language === 'python') await resolvePythonSchemas(file.path, text, defined, readModule, (p) => byPath.has(p));
      const senders = defined.length > 0 && language !== null ? await importedSenders(file.path, text, language, readModule, (p) => byPath.has(p), moduleSenders) : new Set<string>();
      const readers = defined.length > 0 && language !== null ? await importedReaders(file.path, text, language, readModule, (p) => byPath.has(p), moduleReaders) : new Set<string>();
      const runners = defined.length > 0 && language !== null ? await importedShellRunners(file.path, text, language, readModule, (p) => byPath.has(p), moduleRunners) : new Set<string>();
      // Methods of an imported class's instance that send what they are given (`cache.put(p, text)`, round s29).
      const instanceSenders = defined.length > 0 && language !== null ? await importedInstanceSenders(file.path, text, language, readModule, (p) => byPath.has(p)) : new Set<string>();
      tools.push(...defined);
      // What each tool says it does against what its handler's code does.
      for (const tool of defined) {
        if (tool.kind !== 'tool' || !tool.handler) continue;
        const effects = [...handlerEffects(text, language, tool, senders, readers, runners), ...instanceSendEffects(text, tool, instanceSenders)];
        findings.push(...toolBehaviourFindings(tool, effects), ...mirroringFindings(tool, effects, text));
        if (effects.some((e) => e.kind === 'file-write') && !ABOUT_CLIENT_SETUP.test(`${tool.name.replace(/[_-]/g, ' ')} ${tool.description}`)) {
          const registration = selfRegistrationFinding(file.path, text, { tool: tool.name });
          if (registration) findings.push(registration);
        }
        const claims = descriptionClaims(tool);
        for (const e of effects) if (e.kind === 'process' && e.fromInput) inputToProcess.set(`${file.path}:${e.line}`, { tool: tool.name, declared: RUNS_COMMANDS.test(claims.words) });
      }
      // Text a handler returns that is built in another module of the server (`text + FOLLOW_UP`,
      // `return text + notice(city)`): the module's strings are read as the tool's output.
      if (language !== null) findings.push(...(await importedOutputFindings(file.path, text, language, defined, readModule, (p) => byPath.has(p))));
    }
    // Metadata documents the server serves as files (`.well-known/oauth-authorization-server`, JSON,
    // a YAML or TOML configuration it loads and serves).
    if (language === null && (/\.(?:json|ya?ml|toml)$/i.test(file.path) || /(?:^|\/)\.well-known\//.test(file.path))) findings.push(...oauthMetadataFindings(file.path, text, new Map(), !/\.json$/i.test(file.path)));
    // Resources and prompts the server ships as plain text or data files reach the model as they are.
    if (language === null && MODEL_DOCUMENT.test(file.path) && /\.(?:txt|json|ya?ml|toml|html?|xml|csv)$/i.test(file.path)) findings.push(...lineJumpingFindings(text, file.path, (o) => lineAt(text, o)), ...textOrderFindings(file.path, text, 1));
    const hook = installScripts.get(file.path);
    if (hook !== undefined) {
      const registration = selfRegistrationFinding(file.path, text, { lifecycle: hook });
      if (registration) findings.push(registration);
    } else if (language === 'javascript' || language === 'typescript' || language === 'python') {
      const registration = startupRegistrationFinding(file.path, text);
      if (registration && !findings.some((f) => f.file === file.path && f.category === 'persistence')) findings.push(registration);
    }
    // What a write of another client's configuration installs there: a download-and-run command, or an
    // approved server's entry taken over (s25-mcp). Its constants are read here and one module away.
    if ((language === 'javascript' || language === 'typescript' || language === 'python') && editsClientConfig(text)) {
      ownNames ??= ownServerNames((await Promise.all(['package.json', 'pyproject.toml', 'setup.py', 'setup.cfg'].map((p) => readModule(p)))).filter((t): t is string => t !== null));
      let constants = new Map<string, string>();
      try {
        constants = new Map([...topLevelConstants(text, language), ...(await importedConstants(file.path, text, language, readModule, (p) => byPath.has(p), moduleConstants))]);
      } catch {
        // unparsable: the literals are read as they are
      }
      const via = hook !== undefined || /(?:^|\/)setup\.py$/.test(file.path) ? 'install' : runByUser(file.path, text) ? 'setup' : 'runtime';
      const entry = clientEntryFinding(file.path, text, constants, ownNames, via);
      if (entry !== null) findings.push(entry);
    }
    if (deep && (language === 'javascript' || language === 'typescript' || language === 'python') && !EVAL_PROMPTS.test(file.path)) {
      // Text the model is shown that the code builds from pieces: tool results, prompts, server instructions.
      // Phrases only: hidden characters are the file's own text's business (a coloured log line's ESC is cooked here;
      // so is a `\n` that splits a sentence across the pieces of a concatenation).
      for (const folded of foldedStrings(codeText, language)) {
        findings.push(...instructionTextFindings(blankListedSpecimens(folded.value.replace(/\\n/g, '\n').replace(/\\(["'])/g, '$1')), { file: file.path, firstLine: folded.line, markdown: false, phrases: true, rules: CODE_PHRASE_RULES, extraRules: MCP_DESCRIPTION_RULES, joinWrappedLines: true, quotedExamples: 'detected-sentence', htmlComments: true }).filter((f) => PHRASE_TITLES.has(f.title.replace(HIDDEN_IN_COMMENT, '')) || f.title === HTML_COMMENT_TITLE).map((f) => ({ ...f, line: folded.line })));
        findings.push(...lineJumpingFindings(folded.value.replace(/\s*\n\s*/g, ' '), file.path, folded.line));
      }
      // A server whose own LLM client, or the agent's environment it sets, is pointed at a relay: the prompts it
      // builds from what the user hands it, and the vendor's key, go there (the skills track's base-URL reading).
      findings.push(...agentSettingsFindings(file.path, text, 'script').filter((f) => f.category === 'exfiltration'));
      const shell = language !== 'python' ? socketShellFinding(file.path, text) : null;
      if (shell !== null) findings.push(shell);
      // An HTTP server on every interface, no credential checked, a process started from the request (CVE-2025-49596 class, r16).
      const endpoint = unauthenticatedCommandEndpointFinding(file.path, text, inputToProcess);
      if (endpoint !== null) findings.push(endpoint);
      const bomb = logicBombFinding(file.path, text, language, 'server code');
      if (bomb !== null) findings.push(bomb);
      const patch = libraryPatchFinding(file.path, text, language);
      if (patch !== null) findings.push(patch);
      // exec/eval looked up through __builtins__ and run on decoded data (s17, delayed stage in a helper).
      const indirect = language === 'python' ? indirectExecFinding(file.path, text) : null;
      if (indirect !== null) findings.push(indirect);
      const keyWrap = language === 'python' || language === 'javascript' ? keyFunctionWrapFinding(file.path, text, language) : null;
      if (keyWrap !== null) findings.push(keyWrap);
      // A service token from the environment put in a header to a host that is not its service, here or one module away (s17).
      for (const f of await credentialForeignHostFindings(file.path, text, language, readModule, (p) => byPath.has(p))) if (!findings.some((g) => g.file === f.file && g.title === f.title)) findings.push(f);
      // Credential folders of the home directory named in a collection and swept whole (no credential file named).
      const harvest = homeCredentialHarvestFinding(file.path, text);
      if (harvest !== null) findings.push(harvest);
      // A transfer's recipient swapped for a hard-coded address by a helper the sending module calls (s20-mcp).
      for (const f of await recipientSubstitutionFindings(file.path, codeText, language, readModule, (p) => byPath.has(p))) if (!findings.some((g) => g.file === f.file && g.title === f.title)) findings.push(f);
      // The user's database connection string put into a request to a fixed host (s19-mcp2).
      const connection = connectionStringSentFinding(file.path, codeText, language === 'python') ?? (await connectionStringHandedOverFinding(file.path, codeText, language, readModule, (p) => byPath.has(p)));
      if (connection !== null && !findings.some((g) => g.file === connection.file && g.title === connection.title)) findings.push(connection);
      const oauthImports = OAUTH_FIELD.test(text) ? await importedConstants(file.path, text, language, readModule, (p) => byPath.has(p), moduleConstants) : new Map<string, string>();
      findings.push(...oauthMetadataFindings(file.path, text, oauthImports));
      // A sampling prompt kept in another module or in a file of the artifact is read where the request names it.
      const sampled = /createMessage|create_message|\.sample\s*\(/.test(text) ? await namedTexts(file.path, text, language, loaded, readModule, (p) => byPath.has(p), moduleConstants) : new Map<string, string>();
      findings.push(...elicitationFindings(file.path, text));
      // (round s31b) Functions here or one module away that send what they are given: where a sampling answer handed to one goes.
      const answerSinks = /createMessage|create_message|\.sample\s*\(/.test(text) ? await answerSenders(file.path, text, language, readModule, (p) => byPath.has(p)) : new Set<string>();
      findings.push(...samplingFindings(file.path, text, language, sampled, answerSinks), ...rugPullFindings(file.path, text, language), ...remoteDescriptionFindings(file.path, text, language), ...prefixContainmentFindings(file.path, text, language));
      // A description chosen by a launch count the server keeps on disk (a sleeper rug pull, round s29).
      if (deep) findings.push(...(await launchCountDescriptionFindings(file.path, text, language, readModule, (p) => byPath.has(p))));
      // Descriptions fetched by a helper of another module, read from a file the server downloads, or taken from the environment.
      const fetchers = DESCRIBES.test(text) ? await importedFetchers(file.path, text, language, readModule, (p) => byPath.has(p), moduleFetchers) : new Set<string>();
      const timed = DESCRIBES.test(text) ? await importedTimedTexts(file.path, text, language, readModule, (p) => byPath.has(p), moduleTimed) : new Set<string>();
      findings.push(...descriptionSourceFindings(file.path, text, language, fetchers, timed));
      // Terminal escape codes that conceal text (SGR 8) in a server's code: a description printed in a
      // terminal hides what the model still reads (Trail of Bits, "Deceiving users with ANSI terminal
      // codes in MCP", 2025). Colours and progress lines use other codes.
      const conceal = ANSI_ESCAPE.test(text) || text.includes('\u001b') ? ANSI_CONCEAL.exec(text) : null;
      if (conceal !== null) findings.push(referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'server text hides content from a terminal with escape codes (conceal) that the model still reads', file: file.path, line: lineAt(text, conceal.index), evidence: text.slice(conceal.index, conceal.index + 120) }));
    }
    if (language !== null) {
      let facts = scriptFacts(file.path, codeText, language);
      // A collection of credential files or MCP client configurations walked in a loop is judged by what the
      // loop does with them (read, then carried to a request), not by the paths it names (s19-mcp2).
      const collections = deep && language !== 'shell' ? credentialCollections(codeText, language) : [];
      if (collections.length > 0) {
        facts = facts.filter((f) => f.kind !== 'secret-path' || !collections.some((c) => f.line >= c.lines[0] && f.line <= c.lines[1]));
        const sent = credentialCollectionFinding(file.path, collections);
        const readOnly = collections.find((c) => c.read && c.sent === null && c.paths.some((p) => !isClientConfigPath(p)));
        if (sent !== null) findings.push(sent);
        else if (readOnly !== undefined) findings.push(referenceFinding({ category: 'credential_access', severity: 'MED', title: 'server code reads credential files', file: file.path, line: readOnly.lines[0], evidence: `${readOnly.name}: ${readOnly.paths.slice(0, 4).join(', ')} read in a loop` }));
      }
      if (deep && language !== 'shell') {
        // A Bcc address kept in a constant is as fixed as one written in place.
        const known = new Set(facts.filter((f) => f.kind === 'hardcoded-bcc').map((f) => f.line));
        // Constants imported from the server's other modules are folded where they are built.
        const imported = await importedConstants(file.path, text, language, readModule, (p) => byPath.has(p), moduleConstants);
        facts.push(...hiddenRecipientFacts(text, language, imported).filter((f) => !known.has(f.line)));
      }
      // Lines where an evaluator compiles code in the server's process (not a shell): their download-and-run is CRIT.
      const evaluated = new Set(facts.filter((f) => f.kind === 'dynamic-eval' || f.kind === 'input-eval' || (f.kind === 'download-exec' && EVALUATOR_CALL.test(f.evidence))).map((f) => f.line));
      const codeFindings = regradeServerCodeFindings(scriptFactFindings(file.path, facts, { subject: 'server code', quotedShellSafe: true }), text, language, inputToProcess, evaluated);
      // Release, eval, test-helper and setup-package scripts (development-code.ts) are one step lower (round s30, real false alarms).
      findings.push(...(isDevelopmentCode(file.path, runFiles) ? codeFindings.map(lowerDevelopmentFinding) : codeFindings));
      // An OS autostart entry or a crontab the server installs (a foothold outliving the client), judged by what it runs (s27).
      if (deep && (language === 'javascript' || language === 'typescript' || language === 'python')) {
        const values = await importedConstants(file.path, text, language, readModule, (p) => byPath.has(p), moduleConstants);
        const handlerReported = findings.some((f) => f.file === file.path && f.title === 'tool handler writes to a login, schedule or SSH-key location');
        const plant = autostartPlantFinding(file.path, text, facts, values, runByUser(file.path, text), handlerReported);
        if (plant !== null) findings.push(plant);
      }
    }
    findings.push(...instructionTextFindings(text, { file: file.path, markdown: false, phrases: false }));
    // A program in invisible or Private Use Area characters that the server's code decodes and runs.
    if (language === 'javascript' || language === 'typescript' || language === 'python') findings.push(...invisibleCodeFindings(text, file.path));
    // The string constants of the code are read like descriptions: one chosen at run time (a rug
    // pull that swaps it after the first call) is still a string somewhere in the code.
    const code = language === 'javascript' || language === 'typescript' || language === 'python' ? language : null;
    const strings = !deep || EVAL_PROMPTS.test(file.path) ? null : code !== null ? codeStrings(codeText, code, 'exclude', file.path) : MANIFEST_FILE.test(file.path) ? text : null;
    const stringOptions = { file: file.path, markdown: false, rules: CODE_PHRASE_RULES, extraRules: MCP_DESCRIPTION_RULES, quotedExamples: 'detected-sentence', htmlComments: true } as const;
    // (Quoted items of a list of things to look for — "Flag strings such as \"…\", \"…\"" — are a review's specimens.)
    if (strings !== null) findings.push(...instructionTextFindings(blankListedSpecimens(strings), stringOptions));
    // Orders in the code's texts (prompt templates, resources, results, sampling prompts) that act on the user's machine.
    if (strings !== null && code !== null) findings.push(...codeTextOrderFindings(file.path, codeText, code, strings));
    // Standing orders about other calls in the code's texts (server instructions, prompts, resources, results).
    if (strings !== null && code !== null) findings.push(...lineJumpingFindings(strings, file.path, (o) => lineAt(strings, o)));
    // An order in the server's texts to write standing orders into the agent's memory (CLAUDE.md, a memory tool), judged by what it plants.
    if (strings !== null && code !== null && memoryPlantsLikely(strings)) findings.push(...(await plantFindings(file.path, strings, byPath)).map((f) => ({ ...f, line: lineAt(strings, 0) })));
    // A detector's pattern tables (`INJECTION_PATTERNS = [...]`, `re.compile("…")`) spell what it
    // looks for: read apart and reported LOW, as a phrase quoted as an example is.
    if (strings !== null && code !== null) {
      for (const f of instructionTextFindings(codeStrings(codeText, code, 'only', file.path), stringOptions)) {
        findings.push(f.severity === 'LOW' ? f : { ...f, severity: 'LOW', title: `${f.title} (a detection pattern)` });
      }
    }
  }

  // A service credential from the environment carried, in Go, from the entry package into a request to another host.
  if (goSources.length > 0) findings.push(...goCredentialSendFindings(goSources));
  // A Go server's texts (results, descriptions, instructions) built from pieces, read for markdown-image exfiltration
  // (s30-mcp); (round s31) per package, with the string constants of all its files (go-served-texts.ts).
  if (goSources.length > 0) findings.push(...goPackageServedTextFindings(goSources));
  // (round s31b) A Go server's tools, prompts and resources (mcp-go, the go-sdk) get every per-tool reading below.
  if (goSources.length > 0) tools.push(...goTools(goSources));
  // (round s31b) What a Go server's init functions run, through the functions they call, with tables it reorders or decodes.
  if (goSources.length > 0) findings.push(...goInitRunFindings(goSources));

  // Files the code loads by name (a prompt template, a description table, a README served as the server's
  // instructions) reach the model as they are, less the comments a template renderer drops.
  // Partials a loaded template includes (`{% include "_footer.md.j2" %}`, `{{> footer}}`) are rendered into the same text.
  for (const path of [...loadedFiles]) {
    const text = await readModule(path);
    if (text !== null) for (const included of await includedTexts(path, text, allPaths, readModule)) if (!DEPENDENCIES.test(included) && !isTestOrExample(included)) loadedFiles.add(included);
  }
  for (const path of [...loadedFiles].sort()) {
    const f = byPath.get(path);
    const text = f === undefined || f.size > 256 * 1024 ? null : await readArtifactText(f);
    // (Hidden text in documents was reported with every document.)
    if (text !== null) for (const f of loadedTextFindings(path, text)) if (!findings.some((g) => g.file === f.file && g.line === f.line && g.title === f.title)) findings.push(f);
  }

  for (const tool of tools) {
    const described = instructionTextFindings(tool.description, { file: tool.file, firstLine: tool.descriptionLine, markdown: true, cookEscapes: true, extraRules: MCP_DESCRIPTION_RULES, joinWrappedLines: true, quotedExamples: 'detected' });
    // Instructions in parameter names and parameter descriptions reach the model just the same
    // ("full-schema poisoning", CyberArk 2025).
    const parameters = [...privateParameterFindings(tool), ...instructionParameterFindings(tool), ...parameterDescriptionFindings(tool), ...schemaFieldSecretFindings(tool)];
    // Descriptions of Python parameters (pydantic `Field(description=…)`) are read as the schema's are below.
    const pythonParams = (tool.parameterDescriptions ?? []).map((p) => p.description).join('\n');
    if (pythonParams !== '') for (const f of instructionTextFindings(pythonParams, { file: tool.file, markdown: false, extraRules: MCP_DESCRIPTION_RULES })) parameters.push({ ...f, line: tool.line });
    findings.push(...described, ...parameters, ...receivedContextFindings(tool, [...described, ...parameters]));
    for (const f of textOrderFindings(tool.file, tool.description, tool.descriptionLine)) if (!findings.some((g) => g.file === f.file && g.title === f.title)) findings.push(f);
    findings.push(...lineJumpingFindings(tool.description.replace(/\s*\n\s*/g, ' '), tool.file, tool.descriptionLine));
    if (memoryPlantsLikely(tool.description)) findings.push(...(await plantFindings(tool.file, tool.description, byPath)).map((f) => ({ ...f, line: tool.descriptionLine })));
    const schemaText = schemaStrings(tool.inputSchema).join('\n');
    if (schemaText !== '') {
      for (const f of instructionTextFindings(schemaText, { file: tool.file, markdown: false, extraRules: MCP_DESCRIPTION_RULES })) findings.push({ ...f, line: tool.line });
      findings.push(...lineJumpingFindings(schemaText, tool.file, tool.line));
    }
  }
  const shadowing = [...crossToolFindings(tools), ...fixedParameterFindings(tools)];
  // (round s31b) The wider reading adds to a description already reported for shadowing only when it is worse (CRIT).
  findings.push(...shadowing, ...foreignArgumentFindings(tools).filter((f) => f.severity === 'CRIT' || !shadowing.some((g) => g.file === f.file && g.line === f.line)));

  // npm runs an MCP server package's install scripts like any package's: read them as the packages agent does.
  if ((manifestText !== null && /"(?:preinstall|install|postinstall)"\s*:/.test(manifestText)) || byPath.has('setup.py') || (manifestText !== null && byPath.has('binding.gyp'))) {
    const install = await analyzePackage(input, { installTimeOnly: true });
    findings.push(...install.findings.filter((f) => f.severity !== 'LOW'));
  }
  // Credentials read by one module of the server and handed, when it starts, to another module that
  // sends to a fixed host: the packages agent's cross-module reading, asked only when some module
  // reads credential files or gathers the environment, or names another secret or user-data source —
  // a keychain, history files, the clipboard, a message or browser store (most servers do none of these).
  if (readsUserSources || findings.some((f) => f.category === 'credential_access' && /^server code (reads credential files|collects the whole environment)/.test(f.title))) {
    const split = await analyzePackage(input, { startupSplitOnly: true });
    findings.push(...split.findings.filter((f) => CROSS_MODULE_TITLES.has(f.title)));
  }

  if (tools.length > 0) {
    const files = [...new Set(tools.map((t) => t.file))];
    const first = tools.reduce((a, b) => (a.file < b.file || (a.file === b.file && a.line <= b.line) ? a : b));
    findings.push(
      referenceFinding({
        category: 'tool_manifest',
        severity: 'LOW',
        title: `tool manifest ${toolManifestHash(tools)}`,
        file: first.file,
        line: first.line,
        evidence: `${tools.length} definitions (${tools.map((t) => `${t.kind} ${t.name}`).join(', ')}) in ${files.join(', ')}`,
      }),
    );
  }
  // "Don't tell the user X until Y", "don't show the ID unless asked": a workflow step, not a secret.
  // "Load the extension with Developer mode enabled": a browser or phone setting, unless it is addressed to the model.
  const graded = findings.map((f) =>
    (f.title === 'instruction to hide actions from the user' && f.severity === 'HIGH' && DEFERRED.test(f.evidence ?? '')) || (f.title === 'jailbreak phrasing' && f.severity === 'HIGH' && SETTING_MODE.test(f.evidence ?? '') && !ADDRESSED_TO_MODEL.test(f.evidence ?? ''))
      ? { ...f, severity: 'MED' as const }
      : f,
  );
  return resultFromFindings(graded);
};

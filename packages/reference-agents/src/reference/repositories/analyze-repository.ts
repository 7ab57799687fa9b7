import type { AgentFinding, Severity } from '@vigil/core';
import { linkArtifactConstants } from '../common/linked-constants.js';
import { backdoorCodeOrder } from '../text/backdoor-code-order.js';
import { plantedCodeOrder } from '../text/planted-code-order.js';
import { lockfileFormatOf } from '@vigil/lockfiles';
import type { AnalyzeInput, TrackAnalyzer } from '../common/analyzer.js';
import { DEFAULT_FILE_WALK_LIMITS, listArtifactFiles, readArtifactText, type ArtifactFile } from '../common/artifact-files.js';
import { resultFromFindings } from '../common/score-findings.js';
import { actionFindings, isActionPath } from './action-findings.js';
import { agentConfigFindings, agentConfigKind } from './agent-config-findings.js';
import { agentRulesFindings, agentRulesRuns, isAgentRulesPath } from './agent-rules-findings.js';
import { POINTER_FILE, pointedInstructionFiles } from './agent-instruction-files.js';
import { modelTextOrders, notReportedYet } from '../text/model-text-orders.js';
import { buildFileFindings, buildFileKind, procMacroFindings, procMacroLibrary } from './build-hook-findings.js';
import { HIDDEN_CODE_FILE, hiddenCodeFindings } from './hidden-code-findings.js';
import { modelFileFindings } from '../common/model-file-findings.js';
import { invisibleCodeFindings } from '../packages/hidden-code-findings.js';
import { goGenerateFindings, goInitFindings, goInitRunsShell } from './go-init-findings.js';
import { goRemoteShellFindings } from './go-remote-shell.js';
import { hiddenTextFindings } from './hidden-text-findings.js';
import { MARKDOWN_DOC, markdownCommentFindings } from './markdown-comment-findings.js';
import { lockfileFindings, type KnownPackageLookup } from './lockfile-findings.js';
import { configuredRegistryHosts } from './stray-registry-hosts.js';
import { urlDependencyFindings } from '../packages/url-dependencies.js';
import { PYTHON_DEPENDENCY_FILE, pythonUrlDependencyFindings } from '../packages/python-url-dependencies.js';
import { isInProjectSkill, projectSkillDirectories, projectSkillFindings } from './project-skill-findings.js';
import { isExamplePath, isSkippedRepositoryDirectory, isWorkflowPath, isYarnPluginPath, isYarnReleasePath } from './repository-paths.js';
import { JS_CODE, PS_CODE, PY_CODE, localImports, runCodeFindings, shellRunFiles, type RunReason } from './run-code-findings.js';
import { secretFindings } from './secret-findings.js';
import { AGENT_CLI_SOURCE, agentCliSourceFindings } from './agent-cli-source-findings.js';
import { launchedDestructivePrompt } from '../text/launched-agent-prompt.js';
import { indexConfigFindings } from './index-config-findings.js';
import { editorExecutableFinding } from './editor-executable-finding.js';
import { shebangLanguage, testSetupFiles } from './test-setup-files.js';
import { isYarnBundle, toolConfigFindings, toolConfigKind, yarnPathTarget } from './tool-config-findings.js';
import { scanWorkflow, type SecretHandoff } from './workflow-findings.js';
import { posix } from 'node:path';
import type { AutoRunEntry } from '../packages/capability-findings.js';
import { documentRunScripts, skillCapabilityFindings, type SkillCode } from '../skills/skill-capabilities.js';
import { type ProjectHosts, projectNames, secretHandoffFindings } from './secret-handoff-findings.js';
import { projectOwnHosts, rulesSecretDumpFinding } from './rules-secret-dump.js';
import { powershellRunFiles } from './powershell-secret-send.js';
import { selfRunCodeFiles, selfRunSurfaceFindings } from './self-run-surface-findings.js';
import { selfRunSurface, selfRunSurfaceKind } from '../code/self-run-surfaces.js';
import { hookCommandTargets, manifestScripts } from './hook-command-targets.js';
import { entryFlowFinding, entrySecretFlow } from './run-entry-flow.js';
import { addressHijackFinding } from '../code/address-hijack.js';
import { artifactEscapeFindings, escapeManifestKind } from '../code/artifact-escape.js';
import { pythonBuildHooks } from '../packages/analyze-package.js';
import { WRITES, agentSettingsFindings, joinedPaths } from '../code/agent-settings-writes.js';
import { MEMORY_FILE_IN_CODE, plantedHarm, stringLiterals } from '../text/memory-plant.js';
import { SECRET_HANDOFF_TITLE, secretHandoffs } from '../text/secret-handoff-text.js';
import { plantFindings } from './memory-plant-findings.js';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { devContainerScripts } from '../code/dev-container-scripts.js';
import { goDecodedCommandFindings, goRunsComputedShell } from './go-decoded-tables.js';
import { ruleTestFixture } from './rule-test-fixture.js';
import { goDecodedStringFindings, goGenerateRunTargets, goRunsDynamicShell } from './go-decoded-strings.js';
import { aiCommentFindings } from './ai-comment-findings.js';
import { notebookFindings } from './notebook-findings.js';
import { keySearchSend } from '../code/key-search-send.js';
import { composerRuns, gemspecExtensions, rakeDefaultLines, scriptLanguageFindings, scriptLanguageOf, type ScriptRunContext } from './script-language-findings.js';

export interface RepositoryAnalyzerOptions {
  /**
   * What Vigil knows of package versions beyond the list compiled into the agent
   * (`known/known-compromised.ts`): published BLOCK and WARN verdicts. The `vigil-agent-input/1`
   * object carries none today; a later input version may, and its agent main passes them here.
   */
  knownPackages?: KnownPackageLookup;
}

// Secrets are looked for in text files up to this size: minified bundles and data dumps above it
// are rarely where a credential is committed by hand, and reading them dominates the run time.
const MAX_SECRET_SCAN_BYTES = 1024 * 1024;
// Code that runs by itself is parsed up to this size per file (an action's bundle is 1–5 MB) and
// this much in all, so a monorepo full of build configurations stays within the time budget.
const MAX_RUN_CODE_BYTES = 6 * 1024 * 1024;
const MAX_RUN_CODE_TOTAL = 24 * 1024 * 1024;
// Build tool configurations (`vite.config.js`, `next.config.mjs`, `tailwind.config.js`, `.eslintrc.js`)
// run on every build: the fake job-interview repositories hide their loaders there.
const BUILD_CONFIG = /(^|\/)([\w-]+\.config|\.[\w-]+rc|gulpfile|Gruntfile|webpack\.[\w.-]+|jest\.setup|setupTests)\.(c|m)?[jt]s$/;

const CONFTEST = /(^|\/)conftest\.py$/;

/** The checkout's own npm manifests: the root one and those of its workspace packages (`packages/*`, `apps/*`). */
const OWN_MANIFEST = /^(?:(?:packages|apps)\/[^/]+\/)?package\.json$/;

const LOWERED = ' (in a test, fixture or example path)';

/** Source files a program hidden in invisible characters is decoded and run from. */
const CODE_FILE = /\.(?:m?[jt]sx?|c[jt]s|pyw?)$/i;
/** Programs that may write an agent's settings: source, shell and PowerShell scripts. */
const SETTINGS_WRITER = /\.(?:m?[jt]sx?|c[jt]s|pyw?|sh|bash|zsh|ps1)$/i;
/** Source files whose comments an agent editing them reads. */
const SOURCE_FILE = /\.(?:m?[jt]sx?|c[jt]s|pyw?|sh|bash|zsh|ps1|go|rs|java|kt|kts|scala|swift|rb|php|cs|c|cc|cpp|h|hpp|lua|pl|r|dart|ex|exs|vue|svelte|html?|css|scss|sql|ya?ml|toml)$/i;
/** Configuration an LLM client or a shell reads its API base URL from (`.env`, `.envrc`, Continue, YAML, TOML, JSON). */
const ENDPOINT_CONFIG = /(?:^|\/)\.env(?:rc|\.local|\.development|\.production)?$|\.(?:json|ya?ml|toml|ini|cfg|conf)$/i;

function lowered(findings: AgentFinding[]): AgentFinding[] {
  return findings.map((f) => (f.severity === 'LOW' ? f : { ...f, severity: 'LOW' as Severity, title: `${f.title}${LOWERED}` }));
}

/** A repositories analyzer with an optional source of known verdicts. */
export function createRepositoryAnalyzer(options: RepositoryAnalyzerOptions = {}): TrackAnalyzer {
  return async (input: AnalyzeInput) => {
    // Installed dependencies are not walked at all: a checkout with node_modules has more files there than its own.
    const { files } = await listArtifactFiles(input.dir, DEFAULT_FILE_WALK_LIMITS, isSkippedRepositoryDirectory);
    // Constants one module takes from another read as written in place, in every reader.
    await linkArtifactConstants(files);
    const byPath = new Map(files.map((f) => [f.path, f] as const));
    const skillDirs = projectSkillDirectories(byPath.keys());
    const skillSet = new Set(skillDirs);
    const findings: AgentFinding[] = [];
    // Pickles and model checkpoints run code when loaded; under test, fixture and example paths (a scanner's samples) they are reported LOW.
    for (const f of await modelFileFindings(files)) findings.push(...(isExamplePath(f.file) ? lowered([f]) : [f]));
    // Files that run without anyone reading them, with the reason; analyzed as code after the walk.
    const runsByItself = new Map<string, RunReason>();
    const handoffs: SecretHandoff[] = [];
    const procMacros: string[] = [];
    const loaders: { path: string; rank: number }[] = [];
    /** Findings of code that writes an agent's approvals off: CRIT once the walk knows the file runs by itself. */
    const settingsWrites: AgentFinding[] = [];
    // Scripts the checkout's real dev container runs inside the container: there, the agent's settings are the container's.
    const containerScripts = await devContainerScripts([...byPath.keys()], async (p) => {
      const f = byPath.get(p);
      return f === undefined ? null : readArtifactText(f);
    });
    // A script a package manifest's scripts also run (`postinstall`) runs on the user's machine as well.
    for (const f of files.filter((x) => /(?:^|\/)package\.json$/.test(x.path) && containerScripts.size > 0)) {
      const manifest = (await readArtifactText(f)) ?? '';
      for (const p of [...containerScripts]) if (manifest.includes(p)) containerScripts.delete(p);
    }
    // Files a coding agent's hook runs, and files something else runs by itself too (an install script's target is not a hook's).
    const hookRuns = new Set<string>();
    const otherRuns = new Set<string>();
    const queue = (path: string, reason: RunReason, hook = false) => {
      (hook ? hookRuns : otherRuns).add(path);
      if (byPath.has(path) && !runsByItself.has(path)) runsByItself.set(path, reason);
    };
    // The registries the checkout's own configuration names: a lockfile entry from one of them is not a stray.
    const registryConfigs: string[] = [];
    // Files a yarnPath names like a Yarn release that are not Yarn's bundle: code every yarn command runs.
    const fakeYarnReleases = new Set<string>();
    for (const file of files) {
      if (!/(?:^|\/)\.(?:npmrc|yarnrc|yarnrc\.yml)$/.test(file.path) || file.size > MAX_SECRET_SCAN_BYTES) continue;
      const text = await readArtifactText(file);
      if (text !== null) registryConfigs.push(text);
      const release = text === null ? null : yarnPathTarget(file.path, text);
      const releaseFile = release === null ? undefined : byPath.get(release);
      if (releaseFile !== undefined && !isYarnBundle(releaseFile.size, await readArtifactText(releaseFile))) fakeYarnReleases.add(releaseFile.path);
    }
    const registryHosts = configuredRegistryHosts(registryConfigs);
    // A hook's, task's or lifecycle command's files, followed through the shell, project-folder variables,
    // launchers and the root manifest's scripts (`npm run x`): run by itself, analyzed as code.
    const rootManifest = byPath.get('package.json');
    const rootScripts = manifestScripts(rootManifest === undefined || rootManifest.size > MAX_SECRET_SCAN_BYTES ? null : await readArtifactText(rootManifest));
    const queueCommandTargets = (configPath: string, commands: readonly string[], hooks: readonly string[] = []) => {
      const segs = configPath.split('/');
      const dot = segs.findIndex((s, i) => i < segs.length - 1 && s.startsWith('.'));
      const projectDir = dot > 0 ? segs.slice(0, dot).join('/') : '';
      const lookup = { exists: (p: string) => byPath.has(p), npmScript: (n: string) => rootScripts[n], bases: projectDir === '' ? [] : [projectDir] };
      for (const command of commands.slice(0, 40)) for (const target of hookCommandTargets(command, lookup)) queue(target, 'automatic', hooks.includes(command));
    };
    const scriptRuns = await rubyPhpRuns(files);
    const allPaths = files.map((f) => f.path);
    // Hosts the project's README and manifests name as its own (a secret sent there is not sent to an outsider).
    const projectTexts = await Promise.all(files.filter((f) => /^(?:readme(?:\.\w+)?|package\.json|pyproject\.toml|Cargo\.toml|setup\.cfg|setup\.py)$/i.test(f.path) && f.size <= 1_000_000).map(async (f) => (await readArtifactText(f)) ?? ''));
    // (round s31) Read from the manifests' metadata, a GitHub Pages CNAME, mkdocs' site_url and the README's links that say they are the project's.
    const ownSources = await Promise.all(files.filter((f) => /^(?:readme(?:\.\w+)?|package\.json|pyproject\.toml|Cargo\.toml|setup\.cfg|setup\.py|CNAME|docs\/CNAME|mkdocs\.ya?ml)$/i.test(f.path) && f.size <= 1_000_000).map(async (f) => ({ path: f.path, text: (await readArtifactText(f)) ?? '' })));
    const ownHosts = projectOwnHosts(ownSources);
    // (round s31) Addresses the checkout's root environment files name (`TELEMETRY_URL=https://…` in `.env.example`): a rules
    // file that sends the environment to `$TELEMETRY_URL` sends it there.
    const envBindings = (await Promise.all(files.filter((f) => /^(?:\.env(?:\.[\w-]+)?|\.envrc)$/.test(f.path) && f.size <= 64 * 1024).slice(0, 10).map(async (f) => (await readArtifactText(f)) ?? ''))).join('\n');
    // …and the owner's and repository's names its manifests give (deno.land is denoland/deno's own: round s30, real false alarms).
    const project = { hosts: ownHosts, names: projectNames(projectTexts) };
    /** Text files a rules file or an agent's configuration points at, with the first file pointing there. */
    const pointed = new Map<string, { from: string; example: boolean }>();
    for (const file of files) {
      const lockfile = lockfileFormatOf(file.path) !== null || file.path.endsWith('bun.lockb');
      const workflow = isWorkflowPath(file.path);
      // A committed Yarn release (a bundle of a few MB, the vendor's code) is read for one thing only:
      // code appended after a long run of whitespace, which every `yarn` command would run.
      if (isYarnReleasePath(file.path) || isYarnPluginPath(file.path)) {
        const release = /\.c?js$/.test(file.path) ? await readArtifactText(file) : null;
        if (release !== null) findings.push(...hiddenCodeFindings(file.path, release, false));
        continue;
      }
      if (!lockfile && !workflow && file.size > MAX_SECRET_SCAN_BYTES) continue;
      // Texts are read one at a time and dropped: a large checkout never sits in memory whole.
      const text = await readArtifactText(file);
      if (text === null) continue;
      if (lockfile) {
        // Lockfiles hold integrity hashes, which token patterns would match by chance.
        findings.push(...lockfileFindings(file.path, text, options.knownPackages, registryHosts));
        // A requirements file also says where pip takes packages from (`--extra-index-url`).
        findings.push(...(isExamplePath(file.path) ? lowered(indexConfigFindings(file.path, text)) : indexConfigFindings(file.path, text)));
        if (!isExamplePath(file.path) && PYTHON_DEPENDENCY_FILE.test(file.path)) findings.push(...pythonUrlDependencyFindings(file.path, text).filter((f) => f.severity !== 'MED'));
        continue;
      }
      // (round s31b) A detection rule's annotated test case beside its rule file (`// ruleid:` lines, rule-test-fixture.ts) is a specimen too.
      const example = isExamplePath(file.path) || (await ruleTestFixture(file.path, text, async (p) => {
        const sibling = byPath.get(p);
        return sibling === undefined || sibling.size > MAX_SECRET_SCAN_BYTES ? null : readArtifactText(sibling);
      }));
      // Shipped page scripts that hook requests or the wallet and swap crypto addresses (chalk/debug 2025).
      const hijack = !example && /\.(?:[cm]?js|[cm]?ts|jsx|tsx|html?)$/.test(file.path) ? addressHijackFinding(file.path, text) : null;
      if (hijack !== null) findings.push(hijack);
      const ownManifest = !example && OWN_MANIFEST.test(file.path);
      if (ownManifest) findings.push(...manifestUrlDependencies(file.path, text));
      // A Python project's dependencies from a URL on a foreign or look-alike host (code hosts are how forks are pinned).
      if (!example && PYTHON_DEPENDENCY_FILE.test(file.path)) findings.push(...pythonUrlDependencyFindings(file.path, text).filter((f) => f.severity !== 'MED'));
      if (workflow) {
        const scanned = scanWorkflow(file.path, text);
        findings.push(...scanned.findings);
        handoffs.push(...scanned.handoffs);
      }
      // What the newer checks find under test, fixture, example and doc paths is reported at LOW.
      const own: AgentFinding[] = [];
      if (skillSet.size > 0 && isInProjectSkill(file.path, skillSet)) {
        // Project skills get the skills agent's analysis below, secrets scan aside.
        findings.push(...secretFindings(file.path, text));
        continue;
      }
      if (isAgentRulesPath(file.path)) {
        own.push(...agentRulesFindings(file.path, text, false));
        // Scripts the rules file has the agent run: from the checkout's root (the agent's working directory) or beside the rules file.
        const rulesDir = file.path.startsWith('.') || !file.path.includes('/') ? '' : file.path.slice(0, file.path.lastIndexOf('/') + 1);
        if (!example) for (const run of agentRulesRuns(text)) {
          const target = [run.target, `${rulesDir}${run.target}`].find((p) => byPath.has(p));
          if (target !== undefined) queue(target, run.automatic ? 'automatic' : 'script');
        }
        // Code the rules file has the agent write with an authentication bypass, unsigned tokens or the environment served.
        const backdoor = backdoorCodeOrder(text);
        if (backdoor !== null) own.push(referenceFinding({ category: 'prompt_injection', severity: backdoor.severity, title: backdoor.severity === 'CRIT' ? 'rules file has the agent write a backdoor into the user’s code' : 'rules file has the agent write code that weakens authentication or exposes secrets', file: file.path, line: lineLocator(text)(backdoor.offset), evidence: backdoor.evidence }));
        // Outside code the rules file has the agent put in the user's pages or dependencies, kept from the user.
        const planted = plantedCodeOrder(text);
        if (planted !== null) own.push(referenceFinding({ category: 'prompt_injection', severity: 'CRIT', title: 'rules file has the agent add outside code to the project and keep it from the user', file: file.path, line: lineLocator(text)(planted.offset), evidence: planted.evidence }));
        own.push(...agentSettingsFindings(file.path, text, 'document'));
        // A rules file that has the agent copy text or a committed file into its memory: judged by what is planted.
        own.push(...(await plantFindings(file.path, text, byPath)));
        const handedOver = secretHandoffs(text);
        for (const h of handedOver) own.push(referenceFinding({ category: 'exfiltration', severity: h.strong ? 'CRIT' : 'HIGH', title: SECRET_HANDOFF_TITLE, file: file.path, line: lineLocator(text)(h.offset), evidence: h.evidence }));
        // A command that sends the environment or a credential file to an outside host: an order in an instruction file (round s30).
        const dump = rulesSecretDumpFinding(file.path, text, ownHosts, envBindings);
        if (dump !== null) own.push(dump);
        // Orders read by what they make the agent do, as in a skill's documents and an MCP server's prompts: plant a hook or an
        // autostart entry, run a downloaded script, switch checks off, insert code (concealment raises them); put secrets
        // into commits, PRs or telemetry (unless handed over outright above); add look-alike or off-registry dependencies.
        // A passage an older rule of the rules file already reported as severely is not reported again.
        own.push(...notReportedYet(modelTextOrders(file.path, text, { readers: { secrets: !handedOver.some((h) => h.strong) } }), own));
      }
      else {
        own.push(...hiddenTextFindings(file.path, text));
        if (MARKDOWN_DOC.test(file.path)) own.push(...markdownCommentFindings(file.path, text));
      }
      const configKind = agentConfigKind(file.path);
      // Text files the rules file or the agent's configuration points at (`@docs/style.md`, opencode `instructions`,
      // Gemini `contextFileName`): read after the walk as the rules are.
      if (POINTER_FILE.test(file.path) || isAgentRulesPath(file.path)) for (const p of pointedInstructionFiles(file.path, text, allPaths)) if (!pointed.has(p)) pointed.set(p, { from: file.path, example });
      // Programs that write an agent's approvals off or point an LLM client at a relay; configuration that does
      // (agent configuration files have their own reading of `env`).
      if (SOURCE_FILE.test(file.path)) own.push(...aiCommentFindings(file.path, text, example));
      // Files searched for private keys and the matches posted to a host written in the code.
      const keySearch = SOURCE_FILE.test(file.path) && !/\.(?:ya?ml|toml|css|scss|html?|sql)$/i.test(file.path) ? keySearchSend(text) : null;
      if (keySearch !== null) own.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'code searches files for private keys and sends the matches to a fixed host', file: file.path, line: lineLocator(text)(keySearch.offset), evidence: keySearch.evidence }));
      if (SETTINGS_WRITER.test(file.path) && !example && MEMORY_FILE_IN_CODE.test(joinedPaths(text)) && WRITES.test(text)) {
        // A program that writes harmful standing orders (its own strings, or a committed file it names) into a memory file.
        const named = files.filter((f) => f.path !== file.path && /\.(?:md|txt|mdc|rules|prompt)$/i.test(f.path) && f.size <= 256 * 1024 && text.includes(f.path.slice(f.path.lastIndexOf('/') + 1)));
        const shipped = (await Promise.all(named.slice(0, 10).map(async (f) => (await readArtifactText(f)) ?? ''))).join('\n');
        const harm = plantedHarm(`${stringLiterals(text)}\n${shipped}`);
        if (harm !== null) own.push(referenceFinding({ category: 'persistence', severity: 'CRIT', title: 'code writes harmful standing orders into an agent’s memory or rules file', file: file.path, line: lineLocator(text)(Math.max(0, text.search(/(?:CLAUDE|AGENTS|GEMINI)\.md|cursorrules|windsurfrules|clinerules|copilot-instructions|\.(?:cursor|windsurf|roo|kiro)\/(?:rules|steering)|['"](?:CLAUDE|AGENTS|GEMINI)['"]/))), evidence: `${named.map((f) => f.path).join(', ')} (${harm})`.slice(0, 300) }));
      }
      if (SETTINGS_WRITER.test(file.path)) {
        const settings = agentSettingsFindings(file.path, text, 'script', { containerScripts });
        if (example) own.push(...settings);
        else settingsWrites.push(...settings);
      } else if (configKind === null && ENDPOINT_CONFIG.test(file.path)) own.push(...agentSettingsFindings(file.path, text, 'config'));
      if (configKind !== null) {
        const config = agentConfigFindings(file.path, text, configKind, ownHosts);
        own.push(...config.findings);
        if (!example) for (const path of config.runs) queue(path, 'automatic', config.hookRuns.includes(path));
        if (!example) queueCommandTargets(file.path, config.commands, config.hookCommands);
        const workspace = file.path.slice(0, file.path.lastIndexOf('.vscode/'));
        for (const program of config.executables) {
          const target = `${workspace}${program.target}`;
          if (!byPath.has(target)) continue;
          own.push(editorExecutableFinding(file.path, program, target));
          if (!example) queue(target, 'automatic');
        }
      }
      const toolKind = toolConfigKind(file.path);
      if (toolKind !== null) {
        const tool = toolConfigFindings(file.path, text, toolKind, (path) => byPath.has(path), (path) => !fakeYarnReleases.has(path));
        own.push(...tool.findings);
        if (!example) for (const path of tool.runs) queue(path, 'automatic');
      }
      // Ruby and PHP: what a gem install, a composer install or a bare rake runs, and code evaluated or run anywhere.
      const scriptLanguage = scriptLanguageOf(file.path);
      if (scriptLanguage !== null) own.push(...scriptLanguageFindings(file.path, text, scriptLanguage, (!example ? scriptRuns.get(file.path) : undefined) ?? { where: 'code', automatic: false, buildStep: false }));
      if (file.path.endsWith('composer.json')) own.push(...composerRuns(file.path, text).findings);
      const buildKind = buildFileKind(file.path);
      if (buildKind !== null) {
        const build = buildFileFindings(file.path, text, buildKind);
        own.push(...build.findings);
        const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/') + 1) : '';
        // Git runs a hook from the top of the work tree (`.husky/pre-commit` saying `node scripts/x.cjs` runs
        // the root's scripts/x.cjs), a manifest's scripts from the manifest's folder: a hook's target is tried at the root too.
        const roots = buildKind === 'git-hook' ? ['', dir] : [dir];
        if (!example) for (const path of build.runs) queue(roots.map((r) => `${r}${path}`).find((p) => byPath.has(p)) ?? `${dir}${path}`, 'automatic');
        if (!example && buildKind === 'git-hook') queueCommandTargets('', text.split('\n').filter((l) => !/^\s*#/.test(l)));
        // The checkout's own manifests only (root and workspace packages), not a vendored or nested project's.
        if (ownManifest) for (const path of build.userRuns) queue(`${dir}${path}`, 'script');
      }
      if (isActionPath(file.path)) {
        const action = actionFindings(file.path, text);
        own.push(...action.findings);
        if (!example) for (const path of action.entries) queue(path, 'action');
      }
      // Files whose commands an ecosystem runs by itself (binding.gyp, .envrc, a dev container's Dockerfile,
      // an MCP server's declared start command), and configuration that makes a tool load a committed program.
      const surfaceKind = selfRunSurfaceKind(file.path);
      if (surfaceKind !== null) {
        const surface = selfRunSurfaceFindings(file.path, text, surfaceKind);
        own.push(...surface.findings);
        if (!example) for (const path of surface.runs) queue(path, 'automatic');
        if (!example && surfaceKind === 'cursor-hooks') queueCommandTargets(file.path, selfRunSurface(text, surfaceKind)?.commands.map((c) => c.command) ?? []);
      }
      // Build and deploy manifests whose paths leave the checkout (smithery.yaml, compose, Dockerfile).
      const escapeKind = example ? null : escapeManifestKind(file.path);
      if (escapeKind !== null) own.push(...artifactEscapeFindings(file.path, text, escapeKind));
      // A Cargo proc-macro crate's library runs in the compiler and in rust-analyzer when the project is opened.
      if (!example && file.path.endsWith('Cargo.toml')) {
        const lib = procMacroLibrary(text);
        if (lib !== null) procMacros.push(`${file.path.slice(0, file.path.lastIndexOf('/') + 1)}${lib}`);
      }
      if (!example) {
        const loaded = selfRunCodeFiles(file.path, text, (p) => byPath.has(p), pythonBuildHooks);
        own.push(...loaded.findings);
        for (const run of loaded.runs) queue(run.path, run.reason);
      }
      if (!example && CODE_FILE.test(file.path) && file.size <= MAX_LOADER_BYTES && loaders.length < MAX_LOADER_CANDIDATES) {
        const rank = loaderRank(text);
        if (rank !== null) loaders.push({ path: file.path, rank });
      }
      if (HIDDEN_CODE_FILE.test(file.path)) own.push(...hiddenCodeFindings(file.path, text, example));
      // A notebook is code its reader runs cell by cell or all at once.
      if (/\.ipynb$/i.test(file.path)) own.push(...notebookFindings(file.path, text));
      // A program in invisible or Private Use Area characters (GlassWorm and its copies in VS Code extensions).
      if (CODE_FILE.test(file.path)) own.push(...invisibleCodeFindings(text, file.path));
      if (AGENT_CLI_SOURCE.test(file.path)) {
        const cli = agentCliSourceFindings(file.path, text);
        own.push(...cli);
        // The same launch with the agent's program in a variable, or an agent SDK allowed everything (round s29).
        const launched = example || cli.some((f) => f.severity === 'CRIT') ? null : launchedDestructivePrompt(text);
        if (launched !== null) own.push(referenceFinding({ category: 'malware', severity: 'CRIT', title: `source starts an AI agent with its permission checks off and a prompt to wipe the user's machine or cloud account${launched.because === undefined ? '' : ` (${launched.because})`}`, file: file.path, line: lineLocator(text)(launched.offset), evidence: launched.evidence }));
      }
      // Go init functions run in every program and test binary that imports the package.
      // An init that starts a shell is read with the package's other files: the command may be built there.
      if (file.path.endsWith('.go')) {
        const dir = file.path.slice(0, file.path.lastIndexOf('/') + 1);
        const computedShell = goRunsComputedShell(text) || goRunsDynamicShell(text);
        const siblings = goInitRunsShell(file.path, text) || computedShell
          ? [...byPath.values()].filter((f) => f.path !== file.path && f.path.startsWith(dir) && !f.path.slice(dir.length).includes('/') && /\.go$/.test(f.path) && !/_test\.go$/.test(f.path) && f.size <= MAX_SECRET_SCAN_BYTES).slice(0, 30)
          : [];
        const packageTexts = (await Promise.all(siblings.map((f) => readArtifactText(f)))).filter((t): t is string => t !== null);
        own.push(...goInitFindings(file.path, text, packageTexts), ...goGenerateFindings(file.path, text));
        // Any function of the package (a library's Open, a vendored dependency's helper) starting a shell with a command decoded from numbers.
        if (computedShell) own.push(...goDecodedCommandFindings(file.path, text, packageTexts));
        // (round s31b) …or from string constants it hex- or base64-decodes and XORs (a `//go:generate` tool's hidden `curl … | bash`).
        if (computedShell && !own.some((f) => f.category === 'obfuscation' && f.severity === 'CRIT')) {
          const decoded = goDecodedStringFindings(file.path, text, packageTexts);
          if (decoded.length > 0) {
            const generator = await goGenerateRunner(dir.replace(/\/$/, ''), byPath);
            own.push(...(generator === null ? decoded : goDecodedStringFindings(file.path, text, packageTexts, generator)));
          }
        }
        // Any function handing a shell what it reads from a network connection (a remote shell in a vendored dependency).
        own.push(...goRemoteShellFindings(file.path, text));
      }
      own.push(...indexConfigFindings(file.path, text));
      if (!example && (BUILD_CONFIG.test(file.path) || /(^|\/)setup\.py$/.test(file.path))) queue(file.path, /setup\.py$/.test(file.path) ? 'automatic' : 'config');
      // pytest imports every conftest.py it collects, and Jest/Vitest the setup files their
      // configuration names, whether they sit in a test directory or not: `pytest` or `npm test` runs them.
      if (CONFTEST.test(file.path)) queue(file.path, 'test');
      if (!example && BUILD_CONFIG.test(file.path)) for (const path of testSetupFiles(file.path, text)) queue(path, 'test');
      findings.push(...(example ? lowered(own) : own));
      findings.push(...secretFindings(file.path, text));
    }
    // What the pointed-at files order, read as the rules file's own text is (not the rules files themselves, nor project skills).
    for (const [path, { from, example }] of pointed) {
      const file = byPath.get(path);
      if (file === undefined || file.size > 256 * 1024 || (skillSet.size > 0 && isInProjectSkill(path, skillSet))) continue;
      const text = await readArtifactText(file);
      if (text === null) continue;
      const found = notReportedYet(modelTextOrders(path, text), findings).map((f) => ({ ...f, evidence: `${f.evidence ?? ''} (instructions ${from} points at)` }));
      // (A guide under docs/ the rules load is instructions all the same: lowered only when the pointing file is an example's.)
      findings.push(...(example ? lowered(found) : found));
    }
    // A program that turns an agent's approvals off when installing, building, testing or opening the project.
    for (const f of settingsWrites) {
      const reason = runsByItself.get(f.file ?? '');
      const automatic = f.category === 'excessive_permissions' && f.severity === 'HIGH' && reason !== undefined && reason !== 'script';
      findings.push(automatic ? { ...f, severity: 'CRIT', title: `${f.title} (in code that runs by itself)` } : f);
    }
    for (const path of procMacros.slice(0, 20)) {
      const file = byPath.get(path);
      const text = file === undefined || file.size > MAX_SECRET_SCAN_BYTES ? null : await readArtifactText(file);
      if (text !== null) findings.push(...procMacroFindings(path, text));
    }
    // Scripts the README tells its reader to run (`python3 exploit.py -u …`, `node scripts/setup.js`):
    // a proof of concept or a take-home project is cloned to be run this way.
    for (const path of await readmeRunScripts(byPath)) queue(path, 'script');
    findings.push(...(await runCodeOf(runsByItself, byPath, new Set([...hookRuns].filter((p) => !otherRuns.has(p))), ownHosts)));
    findings.push(...(await entryFlowFindings(runsByItself, byPath)));
    // (round s31 review) The strongest shapes first (a decoder's result run, then code evaluated), in walk order within a rank.
    const rankedLoaders = loaders.filter((l) => !runsByItself.has(l.path)).sort((a, b) => a.rank - b.rank);
    findings.push(...(await loaderFindings(rankedLoaders.slice(0, MAX_LOADER_FILES).map((l) => l.path), byPath)));
    findings.push(...(await capabilityJudgement(runsByItself, byPath)));
    findings.push(...(await handoffFindings(handoffs, byPath, project)));
    findings.push(...(await projectSkillFindings(input.dir, skillDirs)));
    return resultFromFindings(findings);
  };
}

/**
 * Ruby and PHP files that run by themselves, with what runs them: a gemspec's extension build scripts
 * (`gem install` runs extconf.rb), the gemspec and Gemfile (evaluated by bundler), a Rakefile's top level and
 * default task (a bare `rake`), Composer event scripts' PHP files and `autoload.files`.
 */
async function rubyPhpRuns(files: readonly ArtifactFile[]): Promise<Map<string, ScriptRunContext>> {
  const out = new Map<string, ScriptRunContext>();
  for (const f of files) {
    const base = f.path.slice(f.path.lastIndexOf('/') + 1);
    const dir = f.path.slice(0, f.path.length - base.length);
    if (f.size > MAX_SECRET_SCAN_BYTES || !/\.gemspec$|^Gemfile$|^[Rr]akefile$|^composer\.json$/.test(base)) continue;
    const text = await readArtifactText(f);
    if (text === null) continue;
    if (base.endsWith('.gemspec')) {
      out.set(f.path, { where: 'gemspec (evaluated by gem build and bundle install)', automatic: true, buildStep: true });
      for (const ext of gemspecExtensions(text)) out.set(`${dir}${ext}`, { where: 'gem native extension build (run by gem install)', automatic: true, buildStep: true });
    } else if (base === 'Gemfile') out.set(f.path, { where: 'Gemfile (evaluated by bundle install)', automatic: true, buildStep: true });
    else if (base === 'composer.json') for (const run of composerRuns(f.path, text).runs) out.set(run.path, { where: run.why, automatic: true, buildStep: /script$/.test(run.why) });
    else out.set(f.path, { where: 'Rakefile default task (runs on a bare rake)', automatic: true, buildStep: true, automaticLines: rakeDefaultLines(text) });
  }
  return out;
}

// A project's manifests (root and workspace packages): dependencies from a URL on a foreign host.
// devDependencies count here, where `npm install` in the checkout installs them.
function manifestUrlDependencies(path: string, text: string): AgentFinding[] {
  try {
    const manifest = JSON.parse(text) as unknown;
    if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) return [];
    // Git and code-host URLs are how projects pin forks: only the foreign-host and plain-http cases are signals here.
    return urlDependencyFindings(manifest as Record<string, unknown>, text, path, { devDependencies: true }).filter((f) => f.severity !== 'MED');
  } catch {
    return [];
  }
}

// Repository programs a workflow hands secrets to that are read, at most.
const MAX_HANDOFF_PROGRAMS = 20;

/** Workflow steps handing named secrets to repository programs: each program read for where they go. */
async function handoffFindings(handoffs: readonly SecretHandoff[], byPath: Map<string, ArtifactFile>, project: ProjectHosts): Promise<AgentFinding[]> {
  if (handoffs.length === 0) return [];
  const out: AgentFinding[] = [];
  let npmScripts: Record<string, unknown> | null = null;
  const seen = new Set<string>();
  for (const handoff of handoffs) {
    let target: string | null = handoff.target;
    if (target.startsWith('npm:')) {
      // `npm run notify` → package.json's "notify" script → the program it names.
      if (npmScripts === null) {
        const manifest = byPath.get('package.json');
        const text = manifest ? await readArtifactText(manifest) : null;
        try {
          npmScripts = ((text ? (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts : null) ?? {}) as Record<string, unknown>;
        } catch {
          npmScripts = {};
        }
      }
      const command = npmScripts[target.slice(4)];
      target = typeof command === 'string' ? (/(?:^|\s)(?:\.\/)?([\w.-]+(?:\/[\w.-]+)*\.(?:[cm]?js|ts|py|sh))\b/.exec(command)?.[1] ?? null) : null;
    }
    if (target === null || seen.has(`${handoff.workflow}\u0000${target}`) || seen.size >= MAX_HANDOFF_PROGRAMS) continue;
    seen.add(`${handoff.workflow}\u0000${target}`);
    const file = byPath.get(target);
    if (!file || file.size > MAX_SECRET_SCAN_BYTES) continue;
    let text = await readArtifactText(file);
    if (text === null) continue;
    // The request may sit in a helper the program imports from the repository (one level, a few files).
    for (const imported of localImports(target, text, (p) => byPath.has(p)).slice(0, 5)) {
      const f = byPath.get(imported);
      const more = f && f.size <= MAX_SECRET_SCAN_BYTES ? await readArtifactText(f) : null;
      if (more !== null) text += `\n${more}`;
    }
    out.push(...secretHandoffFindings(handoff, target, text, project));
  }
  return out;
}

/**
 * A loader's shape: code that evaluates or runs something, and a source that something could come
 * from (a request, a decoder). The fake job-interview repositories (Contagious Interview, 2024-2026)
 * hide theirs in a middleware or config module; one no entry requires is still what a reviewer
 * would call the repository's malware, and a later commit or a test wires it in.
 */
// (round s31) Also `exec`/`eval` reached by lookup (`getattr(builtins, 'ex' + 'ec')`, `globals()['__builtins__']`,
// `globalThis['ev' + 'al']`), and a decoder whose data is built in the call (`Buffer.from(s.split('').reverse().join(''), 'base64')`).
// (round s31 review) A global looked up by a quoted key counts only when the key, its pieces joined, spells eval or Function
// (`self["webpackChunksite"]` in every committed webpack chunk does not).
const LOADER_RUNS = /\beval\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(\s*['"`a-z]|\bvm\.(?:runIn\w+|Script)\b|\bexec\s*\(|\bchild_process\b|\b__builtins__\b|\bgetattr\s*\(\s*builtins\b/;
const GLOBAL_LOOKUP = /\b(?:globalThis|window|global|self)\s*\[\s*((?:['"`][\w$]{0,20}['"`]\s*\+?\s*){1,6})\]/g;
// The strongest shapes: eval, exec, Function or vm run on what a decoder returns (`eval(Buffer.from(P, 'base64').toString())`).
const LOADER_RUNS_DECODED =
  /(?:\beval|\bexec|\bFunction|\bvm\.runIn\w+)\s*\(\s*(?:[\w$.]{1,40}\s*\(\s*){0,2}(?:Buffer\.from|atob|(?:base64\.)?b64decode|(?:bytes\.)?fromhex|unhexlify|zlib\.decompress|marshal\.loads)\s*\(/;
const LOADER_RUNS_CODE = /\beval\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(\s*['"`a-z]|\bvm\.(?:runIn\w+|Script)\b/;
// (round s31 review, decode) Or a parameter whose default is the encoding (`function d(x, e = 'base64') { return Buffer.from(x, e) … }`).
const LOADER_SOURCE = /\b(?:axios|fetch|https?\.(?:get|request)|got|request|urlopen|requests\.(?:get|post))\s*[.(]|\bBuffer\.from\s*\([^;\n]{0,400}?['"](?:base64|hex)['"]|\batob\s*\(|\bb64decode\b|\bfromhex\s*\(|\bunhexlify\s*\(|=\s*['"](?:base64|hex)['"]\s*[,)]/;

/** A global's eval or Function looked up by a quoted key, its pieces joined (`globalThis['ev' + 'al']`). */
function looksUpEval(text: string): boolean {
  let seen = 0;
  for (const m of text.matchAll(GLOBAL_LOOKUP)) {
    if (/^(?:eval|Function)$/.test(m[1]!.replace(/[\s'"`+]/g, ''))) return true;
    if (++seen >= 2000) break;
  }
  return false;
}

/**
 * (round s31 review) A file's rank as a loader candidate (lower first), or null when it has no loader's shape: 0 when it runs
 * what a decoder returns, 1 when it evaluates code (eval, Function, vm, a looked-up eval), 2 for the rest (exec, child_process, builtins).
 */
function loaderRank(text: string): number | null {
  const lookup = looksUpEval(text);
  if ((!lookup && !LOADER_RUNS.test(text)) || !LOADER_SOURCE.test(text)) return null;
  if (LOADER_RUNS_DECODED.test(text)) return 0;
  return lookup || LOADER_RUNS_CODE.test(text) ? 1 : 2;
}

/** What a loader does: runs what it fetched or decoded, steals, plants; not a risky setting a maintainer script may use on purpose. */
const LOADER_CATEGORY = /^(?:remote_code_execution|obfuscation|credential_access|exfiltration|malware)$/;
const MAX_LOADER_FILES = 40;
// Candidates kept before they are ranked and the first MAX_LOADER_FILES read.
const MAX_LOADER_CANDIDATES = 5000;
const MAX_LOADER_BYTES = 256 * 1024;

/**
 * The code nothing runs by itself that has a loader's shape: analyzed as code the project's user
 * runs, and only its CRIT findings kept (a download run, a decoded payload run, a memory dump):
 * what is weaker in a file that does not run is not worth a reader's time.
 */
async function loaderFindings(paths: readonly string[], byPath: Map<string, ArtifactFile>): Promise<AgentFinding[]> {
  const out: AgentFinding[] = [];
  for (const path of paths) {
    const file = byPath.get(path);
    const text = file === undefined ? null : await readArtifactText(file);
    if (text === null) continue;
    for (const f of runCodeFindings(path, text, 'present')) if (f.severity === 'CRIT' && LOADER_CATEGORY.test(f.category)) out.push(f);
  }
  return out;
}

// Files pulled in by the imports of files that run by themselves, at most (each within the byte budgets too).
const MAX_IMPORTED_RUN_FILES = 50;

/** The code findings of the files that run by themselves: automatic ones first, within the byte budgets. */
async function runCodeOf(runs: Map<string, RunReason>, byPath: Map<string, ArtifactFile>, hookOnly: ReadonlySet<string> = new Set(), ownHosts: readonly string[] = []): Promise<AgentFinding[]> {
  const hooks = new Set(hookOnly);
  const out: AgentFinding[] = [];
  const rank: Record<RunReason, number> = { automatic: 0, action: 1, plugin: 1, config: 2, test: 2, script: 3, notebook: 3, present: 4 };
  let total = 0;
  // What these files import from the repository runs with them: it joins the queue with the same reason.
  // Files something else runs go first: what they import is not a hook's alone, even a hook's own script.
  const notHook = new Set<string>();
  const queue = [...runs].sort((a, b) => rank[a[1]] - rank[b[1]] || Number(hooks.has(a[0])) - Number(hooks.has(b[0])));
  const queued = new Set(queue.map(([p]) => p));
  const shellRun = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const [path, reason] = queue[i]!;
    const file = byPath.get(path)!;
    const extensionless = !/\.[\w]+$/.test(path.slice(path.lastIndexOf('/') + 1));
    if (!extensionless && !shellRun.has(path) && !JS_CODE.test(path) && !PY_CODE.test(path) && !PS_CODE.test(path) && !/\.(sh|bash|zsh)$/.test(path)) continue;
    if (file.size > MAX_RUN_CODE_BYTES || total + file.size > MAX_RUN_CODE_TOTAL) continue;
    const text = await readArtifactText(file, { ...DEFAULT_FILE_WALK_LIMITS, maxTextBytes: MAX_RUN_CODE_BYTES });
    if (text === null) continue;
    // A program without an extension (`tools/php`, `.vscode/bin/git`) is read as what its #! line names.
    const language = shellRun.has(path) ? 'shell' : extensionless ? shebangLanguage(text) : undefined;
    if (extensionless && language === null) continue;
    total += file.size;
    // (round s31) What a PowerShell script dot-sources, calls or imports runs with it: read with it, and queued in turn.
    const powershell = language === 'powershell' || (language === undefined && PS_CODE.test(path));
    const psRuns = powershell ? powershellRunFiles(path, text, (p) => byPath.has(p)) : [];
    let included = '';
    for (const p of psRuns.slice(0, 5)) {
      const f = byPath.get(p);
      if (f !== undefined && f.size <= MAX_SECRET_SCAN_BYTES) included += `${(await readArtifactText(f)) ?? ''}\n`;
    }
    out.push(...runCodeFindings(path, text, reason, language ?? undefined, hooks.has(path), ownHosts, included));
    if (reason === 'action' || reason === 'plugin') continue;
    const shell = language === 'shell' || (language === undefined && /\.(sh|bash|zsh)$/.test(path));
    const sourced = shell ? shellRunFiles(path, text, (p) => byPath.has(p)) : [];
    for (const imported of [...localImports(path, text, (p) => byPath.has(p)), ...sourced, ...psRuns]) {
      if (!hooks.has(path)) {
        notHook.add(imported);
        hooks.delete(imported);
      }
      if (queued.size >= MAX_IMPORTED_RUN_FILES + runs.size || queued.has(imported)) continue;
      queued.add(imported);
      // What a shell script sources or runs with a shell is shell, whatever its name.
      if (sourced.includes(imported)) shellRun.add(imported);
      queue.push([imported, reason]);
      // What a hook's script imports runs as the hook.
      if (hooks.has(path) && !runs.has(imported) && !notHook.has(imported)) hooks.add(imported);
    }
  }
  return out;
}

const FLOW_WHY: Partial<Record<RunReason, string>> = {
  automatic: 'run by itself: install script, git hook, agent hook, folder-open task, dev container command',
  test: 'test setup code: pytest imports every conftest.py, Jest/Vitest their setup files',
  config: 'build tool configuration, run on every build',
};

/**
 * Secrets carried to the network by code that runs by itself, with the repository modules it imports
 * (two levels, a few files): credential files, the environment or token variables handed, compressed,
 * encoded or in a query string, to a request or to a sending function of a helper module.
 */
async function entryFlowFindings(runs: Map<string, RunReason>, byPath: Map<string, ArtifactFile>): Promise<AgentFinding[]> {
  const out: AgentFinding[] = [];
  const seen = new Set<string>();
  let checked = 0;
  for (const [entry, reason] of runs) {
    const why = FLOW_WHY[reason];
    if (why === undefined || !(JS_CODE.test(entry) || PY_CODE.test(entry)) || checked >= 40) continue;
    checked++;
    const texts = new Map<string, string>();
    const pending: Array<[string, number]> = [[entry, 0]];
    while (pending.length > 0 && texts.size < 8) {
      const [path, depth] = pending.shift()!;
      const file = byPath.get(path);
      if (file === undefined || texts.has(path) || file.size > 512 * 1024) continue;
      const text = await readArtifactText(file);
      if (text === null) continue;
      texts.set(path, text);
      if (depth < 2) for (const imported of localImports(path, text, (p) => byPath.has(p))) pending.push([imported, depth + 1]);
    }
    const flow = entrySecretFlow(entry, texts);
    if (flow === null || seen.has(`${flow.file}:${flow.line}`)) continue;
    seen.add(`${flow.file}:${flow.line}`);
    out.push(entryFlowFinding(flow, `${why}; entry ${entry}`));
  }
  return out;
}

/** The root README's text ('' when there is none or it is too large to be a README). */
async function rootReadme(byPath: Map<string, ArtifactFile>): Promise<string> {
  const readme = [...byPath].find(([p]) => /^readme(\.(md|markdown|rst|txt))?$/i.test(p))?.[1];
  return readme === undefined || readme.size > 1_000_000 ? '' : ((await readArtifactText(readme)) ?? '');
}

/** The checkout's scripts its root README tells the reader to run, outside test and example paths. */
async function readmeRunScripts(byPath: Map<string, ArtifactFile>): Promise<string[]> {
  const readmeText = await rootReadme(byPath);
  if (readmeText === '') return [];
  const paths = [...byPath.keys()].filter((p) => (JS_CODE.test(p) || PY_CODE.test(p)) && !isExamplePath(p));
  return documentRunScripts(paths, readmeText);
}

/**
 * The packages agent's capability judge over the code a checkout runs by itself (build, test, hook and
 * editor entries, with what they import) and the scripts its README tells the reader to run (a PoC's
 * `python poc.py`): a secret or user-data read reaching, or beside, a send to a host the README does
 * not name. Tests and examples are not entries unless something runs them.
 */
async function capabilityJudgement(runs: Map<string, RunReason>, byPath: Map<string, ArtifactFile>): Promise<AgentFinding[]> {
  const readmeText = await rootReadme(byPath);
  const paths = [...byPath.keys()].filter((p) => JS_CODE.test(p) || PY_CODE.test(p));
  const entries: AutoRunEntry[] = [
    ...[...runs].filter(([p]) => JS_CODE.test(p) || PY_CODE.test(p)).map(([rel, reason]) => ({ rel, when: reason === 'script' ? ('readme' as const) : ('checkout' as const) })),
    ...documentRunScripts(paths, readmeText).filter((p) => !runs.has(p)).map((rel) => ({ rel, when: 'readme' as const })),
  ];
  if (entries.length === 0) return [];
  // Code is read within bounds, the entries and the files beside them first (what they import is most likely there).
  const dirs = new Set(entries.map((e) => posix.dirname(e.rel)));
  const near = (p: string) => (entries.some((e) => e.rel === p) ? 0 : [...dirs].some((d) => d === '.' || p.startsWith(`${d}/`)) ? 1 : 2);
  const code: SkillCode[] = [];
  let total = 0;
  for (const p of [...paths].sort((a, b) => near(a) - near(b))) {
    const file = byPath.get(p)!;
    if (file.size > 256 * 1024 || total + file.size > 4 * 1024 * 1024) continue;
    const text = await readArtifactText(file);
    if (text === null) continue;
    total += file.size;
    code.push({ path: p, text });
  }
  return skillCapabilityFindings(code, [readmeText], { entries });
}

/** The repositories reference agent: a source checkout's lockfiles, CI workflows, committed secrets, agent and IDE configuration, hooks and the code they run. */
export const analyzeRepository: TrackAnalyzer = createRepositoryAnalyzer();

/**
 * (round s31b) The `//go:generate` directive of the checkout that runs the Go package in `dir` (`go run ../tools/x`),
 * as `file:line`, or null: read only once a tool's hidden command was found (Go files up to a bounded count).
 */
async function goGenerateRunner(dir: string, byPath: ReadonlyMap<string, ArtifactFile>): Promise<string | null> {
  let read = 0;
  for (const f of byPath.values()) {
    if (!/\.go$/.test(f.path) || f.size > MAX_SECRET_SCAN_BYTES || read++ > 400) continue;
    const text = await readArtifactText(f);
    if (text === null || !text.includes('//go:generate')) continue;
    if (goGenerateRunTargets(f.path, text).includes(dir)) return `//go:generate in ${f.path}`;
  }
  return null;
}

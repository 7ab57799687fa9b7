import type { AgentFinding } from '@vigil/core';
import type { TrackAnalyzer } from '../common/analyzer.js';
import { listArtifactFiles, readArtifactText } from '../common/artifact-files.js';
import { referenceFinding } from '../common/reference-finding.js';
import { resultFromFindings } from '../common/score-findings.js';
import { scriptFactFindings } from '../skills/script-fact-findings.js';
import { isTestOrExample, languageOf, scriptFacts, worthParsing } from '../skills/script-facts.js';
import { instructionTextFindings } from '../text/instruction-text-findings.js';
import { PHRASE_RULES } from '../text/instruction-phrases.js';
import { codeStrings } from './code-strings.js';
import { jsTools } from './js-tools.js';
import { MANIFEST_FILE, manifestTools } from './manifest-tools.js';
import type { McpTool } from './mcp-tool.js';
import { pythonTools } from './python-tools.js';
import { SHADOWING_RULES, crossToolFindings } from './tool-shadowing.js';
import { toolManifestHash } from './tool-manifest-hash.js';

// In code, paths of credential files are the handlers' business (script facts); the rest of the
// phrase rules apply to its string constants as to any description.
const CODE_PHRASE_RULES = PHRASE_RULES.filter((r) => r.id !== 'secret-file-reference' && r.id !== 'coercion');
const DOCUMENT = /\.(?:md|mdx|markdown)$/i;
const DEPENDENCIES = /(?:^|\/)(?:node_modules|\.venv|venv|site-packages)\//;

function toolsOf(path: string, text: string): McpTool[] {
  const language = languageOf(path);
  if (language === 'javascript' || language === 'typescript') return jsTools(path, text, language === 'typescript');
  if (language === 'python') return pythonTools(path, text);
  if (MANIFEST_FILE.test(path) || /(?:^|\/)[^/]*tools?[^/]*\.json$/i.test(path)) return manifestTools(path, text);
  return [];
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
export const analyzeMcpServer: TrackAnalyzer = async (input) => {
  const listing = await listArtifactFiles(input.dir);
  const findings: AgentFinding[] = [];
  const tools: McpTool[] = [];

  for (const file of listing.files) {
    if (DEPENDENCIES.test(file.path)) continue;
    const text = await readArtifactText(file);
    if (text === null) continue;
    if (DOCUMENT.test(file.path)) {
      findings.push(...instructionTextFindings(text, { file: file.path, markdown: true }));
      continue;
    }
    if (isTestOrExample(file.path)) continue;
    const language = languageOf(file.path);
    const deep = worthParsing(text);
    if (deep) tools.push(...toolsOf(file.path, text));
    if (language !== null) findings.push(...scriptFactFindings(file.path, scriptFacts(file.path, text, language), { subject: 'server code' }));
    findings.push(...instructionTextFindings(text, { file: file.path, markdown: false, phrases: false }));
    // The string constants of the code are read like descriptions: one chosen at run time (a rug
    // pull that swaps it after the first call) is still a string somewhere in the code.
    const strings = !deep ? null : language === 'javascript' || language === 'typescript' || language === 'python' ? codeStrings(text, language) : MANIFEST_FILE.test(file.path) ? text : null;
    if (strings !== null) findings.push(...instructionTextFindings(strings, { file: file.path, markdown: false, rules: CODE_PHRASE_RULES, extraRules: SHADOWING_RULES }));
  }

  for (const tool of tools) {
    findings.push(...instructionTextFindings(tool.description, { file: tool.file, firstLine: tool.descriptionLine, markdown: true, extraRules: SHADOWING_RULES }));
    // Instructions in parameter names and parameter descriptions reach the model just the same
    // ("full-schema poisoning", CyberArk 2025).
    const schemaText = schemaStrings(tool.inputSchema).join('\n');
    if (schemaText !== '') {
      for (const f of instructionTextFindings(schemaText, { file: tool.file, markdown: false, extraRules: SHADOWING_RULES })) findings.push({ ...f, line: tool.line });
    }
  }
  findings.push(...crossToolFindings(tools));

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
  return resultFromFindings(findings);
};

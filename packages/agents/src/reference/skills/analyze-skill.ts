import type { AgentFinding } from '@vigil/core';
import type { TrackAnalyzer } from '../common/analyzer.js';
import { listArtifactFiles, readArtifactText } from '../common/artifact-files.js';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { resultFromFindings } from '../common/score-findings.js';
import { instructionTextFindings } from '../text/instruction-text-findings.js';
import { scriptFactFindings } from './script-fact-findings.js';
import { skillLinkFiles } from './skill-link-files.js';
import type { ScriptFact } from './script-fact.js';
import { isTestOrExample, languageOf, scriptFacts } from './script-facts.js';
import { shellFacts } from './shell-facts.js';
import { parseSkillFrontMatter } from './skill-front-matter.js';

const DOCUMENT = /\.(?:md|mdx|markdown|txt|rst)$/i;
// What a skill says when it does talk to the network: then a request in its scripts is expected.
const DECLARES_NETWORK =
  /https?:\/\/|\b(?:api|apis|http|https|url|urls|web|website|fetch|download|upload|network|online|internet|server|endpoint|webhook|slack|github|gitlab|jira|notion|s3|cloud|remote|sync|email|e-mail|request|requests|publish|deploy|search|webfetch|websearch)\b/i;
const FENCED_BLOCK = /^(?:```|~~~)[^\n]*\n([\s\S]*?)^(?:```|~~~)\s*$/gm;

interface NetworkUse {
  file: string;
  /** The script's first network call. */
  fact: ScriptFact;
}

/** Facts of the shell commands a document tells the model to run (its fenced code blocks). */
function documentCommandFacts(text: string): ScriptFact[] {
  const facts: ScriptFact[] = [];
  for (const m of text.matchAll(FENCED_BLOCK)) {
    const body = m[1] ?? '';
    const offsetLine = lineAt(text, m.index + m[0].indexOf('\n') + 1) - 1;
    for (const f of shellFacts(body)) facts.push({ ...f, line: f.line + offsetLine });
  }
  return facts;
}

/**
 * The skills reference agent: a folder with SKILL.md (front matter + instructions) and scripts.
 * Instructions are checked for override, concealment and jailbreak phrasing and for hidden text;
 * scripts (and commands in the documents' code blocks) for exfiltration, command injection and
 * obfuscated payloads; and the network use of the scripts against what the skill says it does.
 */
export const analyzeSkill: TrackAnalyzer = async (input) => {
  const listing = await listArtifactFiles(input.dir);
  const linked = await skillLinkFiles(input.dir, listing.links);
  const findings: AgentFinding[] = [...linked.findings];
  // Only each script's first network call is kept until the declaration is known: memory stays
  // bounded by the number of scripts, not by what they contain.
  const networkUse: NetworkUse[] = [];
  let declaration = '';
  let skillFile: string | null = null;

  for (const file of [...listing.files, ...linked.files]) {
    const text = await readArtifactText(file);
    if (text === null) continue;
    const isSkillMd = /(?:^|\/)SKILL\.md$/i.test(file.path);
    if (isSkillMd && (skillFile === null || file.path.split('/').length < skillFile.split('/').length)) {
      skillFile = file.path;
      const front = parseSkillFrontMatter(text);
      declaration = `${front.fields.get('name') ?? ''}\n${front.fields.get('description') ?? ''}\n${front.fields.get('allowed-tools') ?? ''}\n${text}`;
    }
    if (DOCUMENT.test(file.path)) {
      findings.push(...instructionTextFindings(text, { file: file.path, markdown: true }));
      const commands = documentCommandFacts(text);
      findings.push(...scriptFactFindings(file.path, commands, { subject: 'documented command' }));
      continue;
    }
    const language = isTestOrExample(file.path) ? null : languageOf(file.path);
    if (language !== null) {
      const facts = scriptFacts(file.path, text, language);
      const network = facts.find((f) => f.kind === 'network');
      if (network) networkUse.push({ file: file.path, fact: network });
      findings.push(...scriptFactFindings(file.path, facts, { subject: 'script' }));
    }
    // Hidden characters in code or data files (Trojan Source bidi, smuggled tags) without phrase rules.
    findings.push(...instructionTextFindings(text, { file: file.path, markdown: false, phrases: false }));
  }

  if (skillFile === null) {
    findings.push(referenceFinding({ category: 'skill_format', severity: 'LOW', title: 'no SKILL.md in the artifact', file: '.' }));
  }
  if (!DECLARES_NETWORK.test(declaration)) {
    for (const { file, fact } of networkUse) {
      findings.push(referenceFinding({ category: 'excessive_permissions', severity: 'MED', title: 'script uses the network though the skill does not say it does', file, line: fact.line, evidence: fact.evidence }));
    }
  }
  return resultFromFindings(findings);
};

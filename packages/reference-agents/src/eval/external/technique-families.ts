/**
 * How the public corpora's own labels (GuardDog's rule names, Cisco's skill and MCP threat
 * categories) map to the technique families the external eval reports, and which of their labels
 * we doubt. A doubtful label stays in the eval and is reported apart (docs/agents.md, "The
 * external eval"): a rule's test snippet is a shape the rule must match, not always malware.
 */

export interface FamilyMapping {
  /** The technique family (kebab-case) the report groups the sample under. */
  family: string;
  /** Why the sample's malicious label is doubtful, when it is. */
  doubt?: string;
}

const CAPABILITY = 'the rule flags a capability many legitimate packages use, not malice; its test snippet shows the capability alone';

/**
 * GuardDog's source-code rules: the semgrep rules (tests `<rule>.py|js|go|rb|json` with `ruleid:`
 * annotations) and the YARA rules (`threat-*` test files matched whole). Language prefixes
 * (`npm-`, `go-`, `rubygems-`) map to the same family as the Python rule.
 */
const GUARDDOG_RULES: Readonly<Record<string, FamilyMapping>> = {
  'api-obfuscation': { family: 'obfuscation' },
  'npm-api-obfuscation': { family: 'obfuscation' },
  obfuscation: { family: 'obfuscation' },
  'npm-obfuscation': { family: 'obfuscation' },
  unicode: { family: 'obfuscation' },
  'exec-base64': { family: 'encoded-payload-execution' },
  'npm-exec-base64': { family: 'encoded-payload-execution' },
  'go-exec-base64': { family: 'encoded-payload-execution' },
  'rubygems-exec-base64': { family: 'encoded-payload-execution' },
  'silent-process-execution': { family: 'silent-process-execution' },
  'npm-silent-process-execution': { family: 'silent-process-execution' },
  steganography: { family: 'steganography' },
  'npm-steganography': { family: 'steganography' },
  'exfiltrate-sensitive-data': { family: 'exfiltration' },
  'npm-exfiltrate-sensitive-data': { family: 'exfiltration' },
  'go-exfiltrate-sensitive-data': { family: 'exfiltration' },
  'rubygems-exfiltrate-sensitive-data': { family: 'exfiltration' },
  'npm-serialize-environment': { family: 'environment-serialization' },
  'rubygems-serialize-environment': { family: 'environment-serialization' },
  'download-executable': { family: 'download-executable' },
  'go-exec-download': { family: 'download-executable' },
  'dll-hijacking': { family: 'dll-hijacking' },
  'npm-dll-hijacking': { family: 'dll-hijacking' },
  'rubygems-network-on-require': { family: 'network-on-import' },
  'rubygems-code-execution': { family: 'install-time-execution' },
  'rubygems-install-hook': { family: 'install-time-execution', doubt: 'a gem install hook is a capability (native extensions use it); the test hooks do nothing harmful' },
  'code-execution': { family: 'install-time-execution', doubt: 'running a command from setup.py is common build practice (git describe, compilers); the rule flags the capability' },
  'cmd-overwrite': { family: 'install-time-execution', doubt: 'overriding setup.py’s install command is a documented setuptools feature; the snippets do nothing harmful in it' },
  'npm-install-script': { family: 'install-time-execution', doubt: 'an install script alone is not malicious (the test script only echoes)' },
  'shady-links': { family: 'shady-links', doubt: 'a URL on a free TLD or a link shortener is not malicious by itself; the snippets only assign the URL' },
  'clipboard-access': { family: 'spyware', doubt: CAPABILITY },
  screenshot: { family: 'spyware', doubt: CAPABILITY },
  // YARA rules (whole test files).
  'threat-filesystem-autostart': { family: 'persistence' },
  'threat-filesystem-read': { family: 'credential-access' },
  'threat-network-exfiltration': { family: 'exfiltration' },
  'threat-network-outbound-shady-links': { family: 'shady-links' },
  'threat-npm-http-dependency': { family: 'remote-dependency' },
  'threat-process-download-exec': { family: 'download-executable' },
  'threat-process-hooks': { family: 'install-time-execution' },
  'threat-process-sysinfo': { family: 'system-reconnaissance' },
  'threat-runtime-dynamic-loader': { family: 'dynamic-code-loading' },
  'threat-runtime-obfuscation': { family: 'obfuscation' },
  'threat-runtime-obfuscation-base64exec': { family: 'encoded-payload-execution' },
  'threat-runtime-obfuscation-dynamic-eval': { family: 'obfuscation' },
  'threat-runtime-obfuscation-hidden-code': { family: 'obfuscation' },
  'threat-runtime-obfuscation-js-mangling': { family: 'obfuscation' },
  'threat-runtime-obfuscation-pyarmor': { family: 'obfuscation', doubt: 'PyArmor is a commercial obfuscator used by legitimate closed-source packages' },
  'threat-runtime-obfuscation-steganography': { family: 'steganography' },
  'threat-runtime-self-propagation': { family: 'self-propagation' },
  'threat-setup-import-aliasing': { family: 'obfuscation' },
};

/**
 * GuardDog test cases whose code, as this snapshot has it, is not malicious by itself (found by
 * reading the missed samples of the baseline): `<test file>:<annotation line>` → the reason.
 */
const GUARDDOG_SNIPPET_DOUBTS: Readonly<Record<string, string>> = {
  'obfuscation.py:41': 'the case is two plain statements (`i = 0`, a print); whatever obfuscation it once showed is not in the snapshot',
};

/** Why a GuardDog test case's malicious label is doubtful, beyond its rule's doubt, if it is. */
export function guarddogSnippetDoubt(file: string, line: number): string | undefined {
  return GUARDDOG_SNIPPET_DOUBTS[`${file}:${line}`];
}

/** The family of a GuardDog rule; an unknown rule is its own family so nothing is dropped. */
export function guarddogFamily(rule: string): FamilyMapping {
  const known = GUARDDOG_RULES[rule];
  if (known !== undefined) return known;
  return { family: rule.replace(/^(?:npm|go|rubygems)-/, '').replace(/[^a-z0-9]+/gi, '-').toLowerCase() };
}

/** The ecosystem a GuardDog test file is written for, from its rule prefix and extension. */
export function guarddogEcosystem(rule: string, ext: string): 'npm' | 'pypi' | 'go' | 'rubygems' {
  if (rule.startsWith('go-') || ext === '.go') return 'go';
  if (rule.startsWith('rubygems-') || ext === '.rb') return 'rubygems';
  if (rule.startsWith('npm-') || ext === '.js' || ext === '.json' || ext === '.mjs' || ext === '.cjs') return 'npm';
  return 'pypi';
}

/**
 * GuardDog's Python rules that read only `setup.py` (the install-time rules): their snippets
 * are placed in `setup.py`; every other Python snippet goes in the package's `__init__.py`, which
 * runs on import.
 */
export const GUARDDOG_SETUP_PY_RULES: ReadonlySet<string> = new Set(['code-execution', 'cmd-overwrite', 'threat-setup-import-aliasing']);

/**
 * cisco-ai-defense/mcp-scanner's behavioural eval categories (`evals/behavioral-analysis/data/
 * <category>/`): each category is a family, as the scanner's taxonomy names it.
 */
export function mcpScannerFamily(category: string): FamilyMapping {
  return { family: category.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') };
}

/**
 * cisco-ai-defense/skill-scanner's eval skills: the category directory (`evals/skills/<category>/`)
 * or, for `evals/test_skills/malicious/<name>`, the name. Vulnerable-but-honest skills and
 * exploit write-ups are doubtful as *malicious* skills.
 */
export function skillScannerFamily(category: string, name: string): FamilyMapping {
  const c = category.toLowerCase();
  const n = name.toLowerCase();
  if (c === 'sql-injection' || c === 'path-traversal') return { family: c, doubt: 'a vulnerable skill (injection or traversal through its inputs), not one that attacks its user' };
  if (c === 'resource-exhaustion') return { family: c, doubt: 'an unbounded loop is a defect; the skill does not act against its user' };
  if (c === 'behavioral-analysis') return { family: n.includes('exfil') ? 'data-exfiltration' : 'behavioral-analysis' };
  if (c === 'malicious') {
    if (n === 'eicar-test') return { family: 'malware-signature', doubt: 'the EICAR antivirus test string, harmless by design' };
    if (/cve-\d{4}-\d+/.test(n)) return { family: 'exploit-payload', doubt: 'a write-up that quotes one CVE’s exploit payload to fire one scanner rule; not a skill that attacks its user' };
    if (n.includes('smuggling')) return { family: 'hidden-instructions' };
    if (n.includes('exfil')) return { family: 'data-exfiltration' };
    return { family: n };
  }
  return { family: c };
}

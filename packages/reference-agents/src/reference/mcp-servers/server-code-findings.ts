import { pythonSourceOf } from './python-source-cache.js';
import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { parseJs, scopeOf, walkJs, type JsNode } from '../skills/js-source.js';
import type { SyntaxNode } from '../skills/python-source.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';

/** Where a tool's input reaches a process, and whether that tool says it runs commands or code. */
export type InputToProcess = Map<string, { tool: string; declared: boolean }>;

// A reverse shell as written: bash's /dev/tcp redirection, netcat or socat handing a shell to a
// socket, a FIFO piped through netcat, an interactive shell redirected, Python's socket + dup2.
const REVERSE_SHELL_SHAPE =
  /\/dev\/(?:tcp|udp)\/[\w.${}-]+\/[\d${}]|\bn(?:c|cat)(?:\.exe)?\s+(?:-[a-z]+\s+)*(?:[\w.${}-]+\s+\d+\s+)?-[a-z]*e\s*\S*(?:sh|cmd(?:\.exe)?)\b|\bmkfifo\s+\S+[^\n]{0,80}\|\s*n(?:c|cat)\s|\bsocat\b[^\n]{0,80}\bexec:|\b(?:ba)?sh\s+-i\s*[<>&]|\bdup2\b|\(standard streams on a socket\)$|\b([3-9])<>[^;&|\n]*[;&|\n][\s\S]*?(?:\b(?:ba|z|da|k)?sh\b[^\n;|&]*<&\s*\1\b|\bread\b[^\n;]*<&\s*\1\b)/i;
// A command that hands a URL to the desktop's opener (the OAuth browser step).
const URL_OPENER = /['"`]\s*(?:open|xdg-open|start(?:\s+"")?|explorer(?:\.exe)?|rundll32\s+url\.dll,\S+)\s/;
// The URL is parsed, encoded or quoted before it reaches the shell.
const URL_CHECKED = /new URL\(|encodeURI|JSON\.stringify\(|shell-?quote|shellescape|\.protocol\b|\^https\?|quote\(/;
// A string constant that is one word, no path: `"cookies"`, `'keystore'`.
const BARE_WORD = /^(['"`])[\w -]+\1,?$/;
// MCP clients' configuration files: installers and uninstallers of a server edit them.
const CLIENT_CONFIG = /claude_desktop_config\.json|(?:^|[/\\'"`])\.?cursor[/\\]mcp\.json|\bmcp\.json\b|windsurf[/\\]mcp_config\.json/i;

/**
 * The URL handed to the opener is a field of a received object (`metadata.authorization_endpoint`,
 * `${config.auth.url}`): data another party supplied, not a URL the server built.
 */
function urlFromReceivedField(around: string): boolean {
  if (/\$\{\s*[\w$]+(?:\??\.[\w$]+)+\s*\}|['"`]\s*\+\s*[\w$]+(?:\??\.[\w$]+)+/.test(around)) return true;
  for (const m of around.matchAll(/\b(?:const|let|var)\s+([\w$]+)\s*=\s*(?:await\s+)?[\w$]+(?:\??\.[\w$]+)+\s*;?\s*$/gm)) {
    const name = (m[1] ?? '').replace(/\$/g, '\\$');
    if (new RegExp(`\\$\\{\\s*${name}\\s*\\}|\\+\\s*${name}\\b`).test(around)) return true;
  }
  return false;
}

/**
 * The shared code findings re-read for an MCP server, where more is known than in a lone script:
 * which shell commands the tools' input reaches, and what the server's installer does.
 *
 * - `runs a shell command built from variable input` stays HIGH where a tool's input reaches the
 *   command and the tool does not say it runs commands or code; where a URL opener (`open`,
 *   `xdg-open`, `start`) gets a field of a received object (OAuth metadata) that is neither
 *   parsed, encoded nor quoted (CVE-2025-6514);
 *   and where the command is built from a parameter of the function that runs it (a helper a
 *   tool in another module calls). Elsewhere (a value the server computed itself) it is MED.
 * - `downloads code and runs it` is CRIT when an evaluator (`eval`, `Function`, `vm.*`, Python `exec`)
 *   runs it in the server's process (evaluatedLines); a shell download-and-run stays as graded.
 * - `opens a reverse shell` needs the shape of one in its evidence (a list of command names in a
 *   UI bundle is not one).
 * - reading an MCP client's configuration next to a network call is an installer when the file
 *   also writes that configuration back (LOW, not CRIT); naming it with no network call is LOW,
 *   and so is a credential store's name standing alone as a word (`'cookies'`), not a path.
 */
const SHA256_CHECK = /\bcreateHash\(\s*['"`]sha256['"`]\s*\)|\bhashlib\.sha256\b|\bsha256sum\b|\bshasum\s+-a\s+256\b|\bGet-FileHash\b/;
/** Every web address of the file is on GitHub (a repository's releases or its API), and a SHA-256 digest is compared with a listed checksum. */
function checkedGithubRelease(text: string): boolean {
  const urls = [...text.matchAll(/https?:\/\/[^\s'"`)]+/g)].map((m) => m[0]);
  if (!SHA256_CHECK.test(text) || !/checksums?|SHA256SUMS/i.test(text) || !urls.some((u) => /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/releases\//.test(u))) return false;
  // One repository's releases (its download host aside).
  const repos = new Set(urls.map((u) => /^https:\/\/(?:github\.com|api\.github\.com\/repos)\/([\w.-]+\/[\w.-]+)\/releases\b/.exec(u)?.[1]?.toLowerCase() ?? (/^https:\/\/objects\.githubusercontent\.com\//.test(u) ? '' : '?')));
  repos.delete('');
  return repos.size === 1 && !repos.has('?');
}

export function regradeServerCodeFindings(findings: readonly AgentFinding[], text: string, language: ScriptLanguage, inputToProcess: InputToProcess, evaluatedLines: ReadonlySet<number> = new Set()): AgentFinding[] {
  const lines = text.split('\n');
  const window = (line: number) => lines.slice(Math.max(0, line - 9), line + 1).join('\n');
  const out: AgentFinding[] = [];
  // Each provenance check walks the file: a bundle with hundreds of shell calls gets the first ones checked.
  let provenanceChecks = 0;
  for (const f of findings) {
    if (f.title === 'server code opens a reverse shell' && !REVERSE_SHELL_SHAPE.test(f.evidence ?? '')) continue;
    // Code received from the network compiled in the server's own process (`eval`, `Function`, `vm`, `exec`), not
    // a shell installer: the server runs whatever that host serves next (round s27).
    if (f.title === 'server code downloads code and runs it' && f.line !== undefined && evaluatedLines.has(f.line)) {
      out.push({ ...f, severity: 'CRIT' });
      continue;
    }
    // (Round s30, real false alarms: mcp-grafana's `.claude-plugin/install-binary.mjs`.) A launcher that takes a release
    // from a GitHub repository's releases and checks its SHA-256 against the release's checksums before running it is
    // the project's binary installer: MED. A download from anywhere else, or unchecked, stays HIGH.
    if (f.title === 'server code downloads code and runs it' && f.severity === 'HIGH' && checkedGithubRelease(text)) {
      out.push({ ...f, severity: 'MED', title: 'server code downloads a checksum-verified GitHub release and runs it' });
      continue;
    }
    if (f.title === 'server code runs a shell command built from variable input' && f.line !== undefined) {
      const input = inputToProcess.get(`${f.file}:${f.line}`);
      const around = window(f.line);
      const opener = URL_OPENER.test(around);
      const high = input !== undefined ? !input.declared : opener ? !URL_CHECKED.test(around) && urlFromReceivedField(around) : provenanceChecks++ < 20 && shellCommandFromParameter(text, language, f.line);
      out.push(high ? f : { ...f, severity: 'MED' });
      continue;
    }
    if (f.title === 'server code reads credential files' && BARE_WORD.test((f.evidence ?? '').trim())) {
      // 'cookies', 'keystore': a word (a browser storage API, an option name), not a path to a store.
      out.push({ ...f, severity: 'LOW' });
      continue;
    }
    if (f.title === 'server code reads credential files' && CLIENT_CONFIG.test(f.evidence ?? '') && !/\.ssh|id_rsa|credentials|\.npmrc|\.netrc|wallet/i.test(f.evidence ?? '')) {
      // Where an installer finds the MCP client's configuration: information, not a signal.
      out.push({ ...f, severity: 'LOW' });
      continue;
    }
    if (f.title === 'server code reads credential files and sends data over the network') {
      const read = (f.evidence ?? '').split(' … ')[0] ?? '';
      if (CLIENT_CONFIG.test(read) && /\bwriteFile(?:Sync)?\(|\.write_text\(|json\.dump\(/.test(text)) {
        out.push(referenceFinding({ category: 'credential_access', severity: 'LOW', title: 'server code edits an MCP client configuration', file: f.file, line: f.line ?? 1, evidence: f.evidence ?? '' }));
        continue;
      }
    }
    out.push(f);
  }
  return out;
}

const SHELL_CALLEE = /(?:^|\.)(?:execa|exec|execSync|system|popen|run|call|Popen|check_output|check_call|getoutput|getstatusoutput|create_subprocess_shell|spawn|spawnSync|execFile|execFileSync)$/;

function jsParameterReaches(text: string, typescript: boolean, line: number): boolean {
  const root = parseJs(text, typescript);
  const scope = scopeOf(root);
  const lineAt = lineLocator(text);
  const parents = new Map<JsNode, JsNode>();
  let call: JsNode | null = null;
  walkJs(root, (node, parent) => {
    if (parent) parents.set(node, parent);
    if (call === null && node.type === 'CallExpression' && lineAt(node.start) === line && SHELL_CALLEE.test(scope.qualify(node.callee as JsNode) ?? '')) call = node;
  });
  if (call === null) return false;
  let fn: JsNode | undefined = parents.get(call);
  while (fn && !/Function/.test(fn.type)) fn = parents.get(fn);
  if (!fn) return false;
  const params = new Set<string>();
  const collect = (p: JsNode | null | undefined) => walkJs(p ?? { type: 'Empty', start: 0, end: 0 }, (n) => { if (n.type === 'Identifier') params.add(n.name as string); });
  for (const p of (fn.params as JsNode[]) ?? []) collect(p);
  // Locals built from parameters carry them: `const cmd = \`git clone ${url}\`; exec(cmd)`.
  const inits = new Map<string, JsNode>();
  walkJs(fn.body as JsNode, (n) => {
    if (n.type === 'VariableDeclarator' && (n.id as JsNode).type === 'Identifier' && n.init) inits.set((n.id as JsNode).name as string, n.init as JsNode);
  });
  const reaches = (node: JsNode | undefined, depth: number): boolean => {
    if (!node || depth > 3) return false;
    let found = false;
    walkJs(node, (n) => {
      if (found || n.type !== 'Identifier') return;
      const name = n.name as string;
      if (params.has(name)) found = true;
      else if (inits.has(name) && inits.get(name) !== node) found = reaches(inits.get(name), depth + 1);
    });
    return found;
  };
  return reaches(((call as JsNode).arguments as JsNode[])[0], 0);
}

function pythonParameterReaches(text: string, line: number): boolean {
  const src = pythonSourceOf(text);
  const lineAt = lineLocator(text);
  const cursor = src.tree.cursor();
  let call: SyntaxNode | null = null;
  do {
    if (cursor.name === 'CallExpression' && lineAt(cursor.from) === line && SHELL_CALLEE.test(src.qualify(cursor.node.firstChild) ?? '')) {
      call = cursor.node;
      break;
    }
  } while (cursor.next());
  if (call === null) return false;
  let fn: SyntaxNode | null = call.parent;
  while (fn && fn.name !== 'FunctionDefinition') fn = fn.parent;
  if (!fn) return false;
  const params = new Set<string>();
  const list = fn.getChild('ParamList');
  for (let c = list?.firstChild ?? null; c; c = c.nextSibling) if (c.name === 'VariableName' && !/^(?:self|cls)$/.test(src.slice(c))) params.add(src.slice(c));
  const inits = new Map<string, SyntaxNode>();
  const body = fn.getChild('Body');
  const walker = body?.cursor();
  if (walker) {
    do {
      if (walker.name === 'AssignStatement' && walker.node.firstChild?.name === 'VariableName' && walker.node.lastChild) inits.set(src.slice(walker.node.firstChild), walker.node.lastChild);
    } while (walker.next() && walker.from < (body?.to ?? 0));
  }
  const reaches = (node: SyntaxNode | undefined | null, depth: number): boolean => {
    if (!node || depth > 3) return false;
    const c = node.cursor();
    do {
      if (c.name !== 'VariableName') continue;
      const name = src.slice(c.node);
      if (params.has(name)) return true;
      if (inits.has(name) && reaches(inits.get(name), depth + 1)) return true;
    } while (c.next() && c.from < node.to);
    return false;
  };
  return reaches(src.args(call).find((a) => a.keyword === null)?.value, 0);
}

/** The command of the shell call at this line is built from a parameter of the function it is in (directly or through locals). */
export function shellCommandFromParameter(text: string, language: ScriptLanguage, line: number): boolean {
  if (language === 'python') return pythonParameterReaches(text, line);
  if (language === 'javascript' || language === 'typescript') return jsParameterReaches(text, language === 'typescript', line);
  return false;
}

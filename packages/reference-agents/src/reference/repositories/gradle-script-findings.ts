import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { TRUSTED_DOWNLOAD_HOSTS } from '../packages/shell-command.js';

/**
 * Gradle build logic (Groovy `*.gradle`, Kotlin DSL `*.gradle.kts`, `buildSrc` sources) is a
 * program: its top level runs at configuration time, on every build and whenever an IDE imports or
 * syncs the project (IntelliJ, Android Studio, VS Code), before anyone looks at a task. A script
 * that fetches bytes and starts a process, or starts a process from text it decodes, is a dropper
 * whatever the words around it say (GitVenom-style game-hack and tool repositories, 2025: a
 * "debug keystore" helper applied from build.gradle.kts downloaded a binary and ran it).
 * These checks read the JVM code itself; command lines in strings still get the shell checks.
 */

// Reads from the network: `URL(…).openStream()`, `new URL(u).text`, `.readBytes()`, an HTTP client, Ant's `get`, the Download task.
const FETCH = /\b(?:URL|URI)\s*\([^)]*\)\s*(?:\.toURL\(\)\s*)?\.(?:openStream|openConnection|readBytes|readText|newInputStream|withInputStream|text\b|bytes\b)|\.toURL\(\)\s*\.(?:openStream|openConnection|readBytes|readText|text\b|bytes\b)|\bHttp(?:s)?URLConnection\b|\bHttpClient\.new(?:HttpClient|Builder)\b|\bHttpRequest\.newBuilder\b|\bOkHttpClient\b|\bant\.get\s*\(|\bant\.invokeMethod\(\s*["']get["']|\bDownload\b[^\n]*\bsrc\s*\(|\bdownload\.run\s*\{|\bChannels\.newChannel\(\s*(?:java\.net\.)?URL\b/;
// Starts a process: ProcessBuilder, Runtime.exec, Gradle's exec blocks, Groovy's `"…".execute()`, or runs code: a class loader over a fetched jar, a script evaluator.
const RUN = /\bProcessBuilder\s*\(|\bRuntime\.getRuntime\(\)\s*\.exec\s*\(|\b(?:project\.|providers\.|execOperations\.)?exec\s*\{|\bcommandLine\s*[(=]?|\bexecutable\s*[(=]|["'\])]\s*\.execute\s*\(\s*\)|\b[A-Za-z_]\w*\.execute\s*\(\s*\)|\bURLClassLoader\b|\bGroovyShell\s*\(|\bEval\.me\s*\(|\bScriptEngineManager\s*\(/;
// Marks a file runnable: what a downloaded program needs before it can start.
const MAKES_EXECUTABLE = /\.setExecutable\s*\(\s*true|\bchmod\b|\bsetPosixFilePermissions\b|\bPosixFilePermission\.OWNER_EXECUTE\b|\bfileMode\s*=\s*0?7[57]5\b/;
// Text decoded at run time: what hides a URL or a command from the reader.
const DECODE = /\bBase64\.(?:getDecoder|getMimeDecoder|getUrlDecoder)\(\)\s*\.decode\s*\(|\.decodeBase64\s*\(\s*\)|\bdecodeHex\b|\bString\s*\(\s*byteArrayOf\s*\(|\bnew\s+String\s*\(\s*\[[\d\s,]+\]\s*as\s+byte\[\]|\bString\s*\(\s*charArrayOf\s*\(|\bjava\.util\.Base64\b[^\n]*\.decode\s*\(/;

// Hosts Gradle builds provision from besides the general download hosts: Maven repositories, Gradle's and Google's own.
const KNOWN_BUILD_HOSTS = /^(?:repo1?\.maven\.org|repo\.maven\.apache\.org|services\.gradle\.org|plugins\.gradle\.org|maven\.google\.com)$/;

/** A Gradle build script or build logic source (`buildSrc`, an included build's convention plugin). */
export function isGradleScript(path: string): boolean {
  return /\.gradle(?:\.kts)?$/.test(path) || /(?:^|\/)buildSrc\/src\/main\/(?:kotlin|groovy|java)\/.+\.(?:kt|kts|groovy|java)$/.test(path);
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Source with comments blanked (line lengths kept), so a commented-out line neither fires nor hides. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/(^|[^:"'\w])\/\/[^\n]*/g, (m, lead: string) => lead + ' '.repeat(m.length - lead.length));
}

/** Hosts of the literal URLs in the script. */
function literalHosts(text: string): string[] {
  const hosts: string[] = [];
  for (const m of text.matchAll(/\bhttps?:\/\/([^/\s"'$:]+)/gi)) hosts.push(m[1]!.toLowerCase());
  return hosts;
}

/**
 * Findings of one Gradle script: a fetch and a process start (or code load) in the same script
 * where the source is hidden (decoded at run time), not a known download host, or the fetched file
 * is made executable: CRIT. A process started from decoded text: CRIT. A fetch and a run of a
 * program from a known host (a release on github.com, nodejs.org), made executable: MED — build
 * logic that provisions a tool looks like that, and its source can be read.
 */
export function gradleScriptFindings(path: string, source: string): AgentFinding[] {
  const text = withoutComments(source);
  const fetch = FETCH.exec(text);
  const run = RUN.exec(text);
  const decode = DECODE.exec(text);
  if (run === null || (fetch === null && decode === null)) return [];
  const where = /\.gradle(?:\.kts)?$/.test(path) ? 'Gradle build script (runs on every build and when an IDE imports the project)' : 'Gradle build logic (runs on every build and when an IDE imports the project)';
  const runLine = lineAt(text, run.index);
  // Names bound to decoded text (`val ep = String(Base64.getDecoder().decode("…"))`), and whether a statement matching `re` uses one (or decodes in place).
  const decodedNames = [...text.matchAll(/\b(?:val|var|def|String)\s+([A-Za-z_]\w*)\s*(?::\s*[\w<>?]+\s*)?=[^\n]*/g)].filter((m) => DECODE.test(m[0])).map((m) => m[1]!);
  const usesDecoded = (re: RegExp) => text.split('\n').some((l) => re.test(l) && (DECODE.test(l) || decodedNames.some((n) => new RegExp(`\\b${n}\\b`).test(l))));
  if (fetch === null) {
    // A process started from decoded text: the decoded value reaches the run (same statement, or a name bound to it).
    if (!usesDecoded(RUN)) return [];
    return [referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: 'Gradle build logic runs a command it decodes at run time', file: path, line: runLine, evidence: `${where}: ${decode![0]} … ${run[0]}` })];
  }
  const hosts = literalHosts(text);
  const ipOrPlain = /\bhttp:\/\/(?!localhost\b|127\.)|\bhttps?:\/\/\d{1,3}(?:\.\d{1,3}){3}/.test(text);
  const untrusted = hosts.some((h) => !TRUSTED_DOWNLOAD_HOSTS.test(h) && !KNOWN_BUILD_HOSTS.test(h));
  const hiddenSource = usesDecoded(FETCH);
  const executable = MAKES_EXECUTABLE.exec(text);
  // Fetched text run in one statement (`new URL(u).text.execute()`, `GroovyShell().evaluate(URL(u).readText())`).
  const direct = text.split('\n').some((l) => FETCH.test(l) && RUN.test(l));
  const fetchLine = lineAt(text, fetch.index);
  if (direct || hiddenSource || (executable !== null && (ipOrPlain || untrusted || hosts.length === 0))) {
    const why = direct ? 'and runs what it receives in the same statement' : hiddenSource ? 'from an address it decodes at run time' : hosts.length === 0 ? 'from an address built at run time' : ipOrPlain ? 'over plain HTTP or from a bare IP address' : `from ${hosts.filter((h) => !TRUSTED_DOWNLOAD_HOSTS.test(h)).slice(0, 2).join(', ')}`;
    return [
      referenceFinding({
        category: 'remote_code_execution',
        severity: 'CRIT',
        title: 'Gradle build logic downloads a program and runs it',
        file: path,
        line: fetchLine,
        evidence: `${where}: ${fetch[0].slice(0, 60)} ${why}${executable !== null ? `, ${executable[0]}` : ''} … ${run[0]} (line ${runLine})`,
      }),
    ];
  }
  if (executable === null) return [];
  return [referenceFinding({ category: 'install_script', severity: 'MED', title: 'Gradle build logic downloads a tool, makes it executable and runs it', file: path, line: fetchLine, evidence: `${where}: ${fetch[0].slice(0, 60)} from ${hosts.slice(0, 2).join(', ')} … ${run[0]} (line ${runLine})` })];
}

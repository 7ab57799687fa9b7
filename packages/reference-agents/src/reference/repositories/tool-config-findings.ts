import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineOfText } from './parse-jsonc.js';
import { downloadSource } from './shell-command-findings.js';

/** Package-manager and build-wrapper configuration that decides what program an ordinary command runs. */
export type ToolConfigKind = 'npmrc' | 'yarnrc' | 'yarnrc-yml' | 'gradle-wrapper' | 'maven-wrapper';

export function toolConfigKind(path: string): ToolConfigKind | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === '.npmrc') return 'npmrc';
  if (base === '.yarnrc') return 'yarnrc';
  if (base === '.yarnrc.yml') return 'yarnrc-yml';
  if (/(^|\/)gradle\/wrapper\/gradle-wrapper\.properties$/.test(path)) return 'gradle-wrapper';
  if (/(^|\/)\.mvn\/wrapper\/maven-wrapper\.properties$/.test(path)) return 'maven-wrapper';
  return null;
}

export interface ToolConfigResult {
  findings: AgentFinding[];
  /** Repository files (relative to the checkout) the configuration makes a command run, to analyze as code. */
  runs: string[];
}

// Where Gradle and Maven publish their distributions and wrapper jars.
const OFFICIAL_WRAPPER_HOSTS: Readonly<Record<'gradle-wrapper' | 'maven-wrapper', RegExp>> = {
  'gradle-wrapper': /^(services\.gradle\.org|downloads\.gradle\.org|downloads\.gradle-dn\.com)$/i,
  'maven-wrapper': /^(repo\.maven\.apache\.org|repo1\.maven\.org|archive\.apache\.org|dlcdn\.apache\.org)$/i,
};
const RAISE: Readonly<Record<Severity, Severity>> = { LOW: 'MED', MED: 'HIGH', HIGH: 'CRIT', CRIT: 'CRIT' };
// Yarn's own release file, as `yarn set version` writes it.
const YARN_RELEASE = /^\.yarn\/releases\/yarn-[\w.+-]+\.c?js$/;

/** `key=value` / `key: value` / `key "value"` pairs of an .npmrc, .yarnrc, .yarnrc.yml or .properties file. */
function settings(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const m = /^\s*([\w.-]+)\s*(?:=|:|\s)\s*(.*?)\s*$/.exec(raw);
    if (m === null || /^\s*[#;]/.test(raw)) continue;
    out.set(m[1]!.toLowerCase(), m[2]!.replace(/^["']|["']$/g, '').replace(/\\:/g, ':'));
  }
  return out;
}

/** A relative, in-repository path a setting names (`./x.js`, `tools/sh`), joined to the config's directory. */
function repoPath(dir: string, value: string): string | null {
  const rel = value.trim().replace(/^["']|["']$/g, '').replace(/^\.\//, '');
  if (rel === '' || rel.includes('..') || /^[/~$%]|^[a-z]:/i.test(rel) || /\s/.test(rel) || !/^[\w.@/+-]+$/.test(rel)) return null;
  return `${dir}${rel}`;
}

/**
 * Findings of configuration that decides what program an ordinary developer command runs: an
 * `.npmrc` whose `node-options` preloads a committed file into every Node process npm starts or
 * whose `script-shell` is a committed file; a Yarn `yarnPath` / `yarn-path` naming a committed file
 * that is not one of Yarn's own release files; a Gradle or Maven wrapper that downloads the build
 * tool (run by `./gradlew`, `./mvnw`) from a host other than the official one — one step more
 * severe without a checksum to pin it.
 */
export function toolConfigFindings(path: string, text: string, kind: ToolConfigKind, committed: (path: string) => boolean): ToolConfigResult {
  const findings: AgentFinding[] = [];
  const runs: string[] = [];
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const values = settings(text);
  const add = (category: string, severity: Severity, title: string, key: string, evidence: string) =>
    findings.push(referenceFinding({ category, severity, title, file: path, line: lineOfText(text, key), evidence }));
  if (kind === 'npmrc') {
    const options = values.get('node-options') ?? '';
    const preload = /(?:--require|--import|--loader|--experimental-loader|(?:^|\s)-r)[=\s]+(\S+)/.exec(options);
    // `--require dotenv/config` names a package; only a committed file is the repository's own code.
    const preloaded = preload === null ? null : repoPath(dir, preload[1]!);
    if (preloaded !== null && committed(preloaded)) {
      add('remote_code_execution', 'MED', 'npm configuration preloads a repository file into every Node process npm starts', 'node-options', `node-options=${options}`.slice(0, 300));
      runs.push(preloaded);
    }
    const shell = values.get('script-shell');
    const shellPath = shell === undefined ? null : repoPath(dir, shell);
    if (shellPath !== null && committed(shellPath)) {
      add('remote_code_execution', 'MED', 'npm configuration runs every package script through a repository file (script-shell)', 'script-shell', `script-shell=${shell}`);
      runs.push(shellPath);
    }
    return { findings, runs };
  }
  if (kind === 'yarnrc' || kind === 'yarnrc-yml') {
    const key = kind === 'yarnrc' ? 'yarn-path' : 'yarnpath';
    const value = values.get(key);
    const target = value === undefined ? null : repoPath(dir, value);
    if (target !== null && committed(target) && !YARN_RELEASE.test(target.slice(dir.length))) {
      add('remote_code_execution', 'MED', 'Yarn configuration runs a repository file in place of Yarn', kind === 'yarnrc' ? 'yarn-path' : 'yarnPath', `${kind === 'yarnrc' ? 'yarn-path' : 'yarnPath'}: ${value}`);
      runs.push(target);
    }
    return { findings, runs };
  }
  const official = OFFICIAL_WRAPPER_HOSTS[kind];
  for (const key of ['distributionurl', 'wrapperurl']) {
    const url = values.get(key);
    if (url === undefined) continue;
    const host = /^[a-z]+:\/\/(?:[^@/]*@)?([^/:?#]+)/i.exec(url)?.[1] ?? '';
    if (host === '' || official.test(host)) continue;
    const pinned = values.has(key === 'distributionurl' ? 'distributionsha256sum' : 'wrappersha256sum');
    const base: Severity = downloadSource(`curl ${url}`) === 'anonymous' ? 'HIGH' : 'MED';
    const tool = kind === 'gradle-wrapper' ? 'Gradle' : 'Maven';
    add('remote_code_execution', pinned ? base : RAISE[base], `${tool} wrapper downloads the build tool from a host other than its official one${pinned ? '' : ', with no checksum'}`, key === 'distributionurl' ? 'distributionUrl' : 'wrapperUrl', url.slice(0, 300));
  }
  return { findings, runs };
}

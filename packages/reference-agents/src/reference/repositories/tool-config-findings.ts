import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineOfText } from './parse-jsonc.js';
import { downloadSource, shellCommandFindings } from './shell-command-findings.js';
import { scriptTarget } from './build-hook-findings.js';
import { tomlStrings } from '../code/toml-strings.js';

/** Package-manager and build-wrapper configuration that decides what program an ordinary command runs. */
export type ToolConfigKind = 'npmrc' | 'yarnrc' | 'yarnrc-yml' | 'gradle-wrapper' | 'maven-wrapper' | 'cargo-config' | 'mise';

export function toolConfigKind(path: string): ToolConfigKind | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === '.npmrc') return 'npmrc';
  if (base === '.yarnrc') return 'yarnrc';
  if (base === '.yarnrc.yml') return 'yarnrc-yml';
  if (/(^|\/)gradle\/wrapper\/gradle-wrapper\.properties$/.test(path)) return 'gradle-wrapper';
  if (/(^|\/)\.mvn\/wrapper\/maven-wrapper\.properties$/.test(path)) return 'maven-wrapper';
  if (/(^|\/)\.cargo\/config(\.toml)?$/.test(path)) return 'cargo-config';
  if (/^\.?mise(\.[\w-]+)?\.toml$/.test(base) || /(^|\/)\.config\/mise(\/config)?(\.[\w-]+)?\.toml$|(^|\/)\.mise\/config\.toml$/.test(path)) return 'mise';
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
// Yarn's releases are bundles of several MB (Berry 2-3 MB, Classic 5 MB) that name Yarn's own packages or site.
const YARN_BUNDLE_BYTES = 1_000_000;
const YARN_BUNDLE_MARK = /@yarnpkg\/|yarnpkg\.com|github\.com\/yarnpkg\//;

/** True when a file named like a Yarn release is one: a bundle of 1 MB or more naming Yarn (text null: too large to read). */
export function isYarnBundle(size: number, text: string | null): boolean {
  return size >= YARN_BUNDLE_BYTES && (text === null || YARN_BUNDLE_MARK.test(text));
}

/** The committed file a `.yarnrc.yml` `yarnPath` / `.yarnrc` `yarn-path` names (relative to the checkout), or null. */
export function yarnPathTarget(path: string, text: string): string | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base !== '.yarnrc' && base !== '.yarnrc.yml') return null;
  const value = settings(text).get(base === '.yarnrc' ? 'yarn-path' : 'yarnpath');
  return value === undefined ? null : repoPath(path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '', value);
}

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
export function toolConfigFindings(path: string, text: string, kind: ToolConfigKind, committed: (path: string) => boolean, yarnBundle: (path: string) => boolean = () => true): ToolConfigResult {
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
    } else if (target !== null && committed(target) && !yarnBundle(target)) {
      // Named like a release but not Yarn's bundle (a few KB, no Yarn in it): a program every yarn command runs.
      add('remote_code_execution', 'MED', 'Yarn configuration runs a committed file named like a Yarn release that is not one', kind === 'yarnrc' ? 'yarn-path' : 'yarnPath', `${kind === 'yarnrc' ? 'yarn-path' : 'yarnPath'}: ${value} (not a Yarn bundle: under 1 MB or naming no @yarnpkg/ package or yarnpkg.com)`);
      runs.push(target);
    }
    return { findings, runs };
  }
  if (kind === 'cargo-config' || kind === 'mise') return programConfigFindings(path, text, kind, committed);
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

// Cargo settings whose value is a program every `cargo build` / `cargo run` / `cargo test` (and
// rust-analyzer, on opening the project) starts: a wrapper around rustc, a runner for built binaries, a linker.
const CARGO_PROGRAM = /^(?:build\.(?:rustc-wrapper|rustc-workspace-wrapper|rustc|rustdoc)|target\.[^.]+(?:\.[^.]+)*\.(?:runner|linker)|host\.linker)$/;
// mise hooks (run on entering or leaving the directory, around installs) and `_.source` scripts (sourced on entering).
const MISE_HOOK = /^hooks\.(?:enter|leave|cd|preinstall|postinstall)(?:\.(?:script|run))?$/;
const MISE_SOURCE = /^env\._\.source(?:\.path)?$/;

/**
 * `.cargo/config.toml` and `mise.toml`: settings that are programs or commands run with nobody
 * choosing them (a rustc wrapper or target runner on every cargo build, a mise hook or `_.source`
 * script on entering the directory). A committed program they name is analyzed as code that runs by
 * itself (LOW finding naming it); an inline command gets the shell checks as a build step.
 */
function programConfigFindings(path: string, text: string, kind: 'cargo-config' | 'mise', committed: (path: string) => boolean): ToolConfigResult {
  const findings: AgentFinding[] = [];
  const runs: string[] = [];
  // Cargo resolves a program with a path separator from the directory holding `.cargo/`; mise from the file's.
  const dir = kind === 'cargo-config' ? path.replace(/(?:^|[^/]*\/)?\.cargo\/config(?:\.toml)?$/, '').replace(/^\.cargo\/.*$/, '') : path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const where = kind === 'cargo-config' ? 'Cargo configuration program (runs on every cargo build)' : 'mise hook (runs on entering the directory)';
  for (const { key, value, line } of tomlStrings(text)) {
    const program = kind === 'cargo-config' ? CARGO_PROGRAM.test(key) : MISE_HOOK.test(key);
    const sourced = kind === 'mise' && MISE_SOURCE.test(key);
    if (!program && !sourced) continue;
    for (const command of value.split('\n').filter((c) => c.trim() !== '' && !/^\s*#/.test(c))) {
      findings.push(...shellCommandFindings(command, { file: path, line, where, automatic: true, buildStep: true }));
      const target = sourced || kind === 'cargo-config' ? repoPath(dir, command.trim().split(/\s+/)[0]!) : null;
      const run = target ?? (scriptTarget(command.trim()) === null ? null : `${dir}${scriptTarget(command.trim())}`);
      if (run !== null && committed(run)) {
        runs.push(run);
        findings.push(referenceFinding({ category: 'install_script', severity: 'LOW', title: kind === 'cargo-config' ? 'Cargo configuration runs a repository program on every build' : 'mise runs a repository script on entering the directory', file: path, line, evidence: `${key} = ${command.trim()}`.slice(0, 300) }));
      }
    }
  }
  return { findings, runs };
}

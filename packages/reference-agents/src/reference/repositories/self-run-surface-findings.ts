import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { isInlineScript, selfRunSurface, yarnPluginPaths, type SurfaceKind } from '../code/self-run-surfaces.js';
import { scriptTarget } from './build-hook-findings.js';
import { expandShellVariables, shellCommandFindings, shellScriptFindings } from './shell-command-findings.js';

export interface SurfaceResult {
  findings: AgentFinding[];
  /** Repository files (relative to the checkout) an automatic command of the surface runs, to analyze as code. */
  runs: string[];
}

/**
 * A checkout's files whose commands run by themselves (`code/self-run-surfaces.ts`): node-gyp's
 * `binding.gyp` (automatic: `npm install` builds the addon), direnv's `.envrc` (automatic: entering
 * the directory runs it once allowed), a dev container's Dockerfile (automatic: "Reopen in Container"
 * builds and starts it; any other Dockerfile is built by hand), and an MCP server's declared start
 * command (`smithery.yaml`, a desktop extension's `manifest.json`, a registry `server.json`; started
 * by a client, not by the checkout). Every command gets the shell command checks; an automatic surface
 * with commands gets a LOW finding naming it, and a start command that is an inline interpreter script
 * rather than a server program gets the MED the agent configuration rule gives an MCP entry.
 */
export function selfRunSurfaceFindings(path: string, text: string, kind: SurfaceKind, options: { startCommandsRun?: boolean } = {}): SurfaceResult {
  const surface = selfRunSurface(text, kind);
  if (surface === null || surface.commands.length === 0) return { findings: [], runs: [] };
  const devContainer = /(^|\/)\.devcontainer\//.test(path);
  // In an MCP server (options.startCommandsRun) its declared start command is what every client runs on start.
  const start = kind === 'smithery' || kind === 'extension-manifest' || kind === 'registry-server';
  const automatic = kind === 'gyp' || kind === 'envrc' || kind === 'cursor-hooks' || (kind === 'dockerfile' && devContainer) || (start && options.startCommandsRun === true);
  const where = kind === 'dockerfile' && devContainer ? 'dev container Dockerfile' : surface.where;
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const findings: AgentFinding[] = [];
  const runs: string[] = [];
  if (kind === 'envrc') findings.push(...shellScriptFindings(expandShellVariables(text), { file: path, where, automatic }));
  const body = kind === 'envrc' ? expandShellVariables(text).split('\n') : null;
  for (const { command, line } of surface.commands) {
    const expanded = body?.[line - 1] ?? command;
    // Entering the directory is opening the project: direnv's code fetched and run there is a build step's.
    findings.push(...shellCommandFindings(expanded, { file: path, line, where, automatic, buildStep: kind === 'envrc' }));
    // `node tools/gen.js`, `./x.sh`; direnv's `source_env x` / `source x` / `. x` load a file into the shell.
    const sourced = kind === 'envrc' ? /^\s*(?:source_env(?:_if_exists)?|source|\.)\s+["']?(?:\.\/)?([\w.@/-]+\.(?:sh|bash|envrc))\b/.exec(expanded)?.[1] : undefined;
    const target = automatic ? (sourced !== undefined && !sourced.includes('..') ? sourced : scriptTarget(expanded.trim())) : null;
    if (target !== null) runs.push(`${dir}${target}`);
    // Cursor resolves a project hook's relative path from `.cursor/` or the project root: both are tried (only a committed one is read).
    if (target !== null && kind === 'cursor-hooks') runs.push(`${dir.replace(/\.cursor\/$/, '')}${target}`);
    if (start && isInlineScript(command)) {
      findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'MED', title: `${where}: runs an inline script instead of a server program`, file: path, line, evidence: command.slice(0, 300) }));
    }
  }
  // A shell's `-c` script is read on its own as well: one finding per title and line.
  const seen = new Set<string>();
  const unique = findings.filter((f) => {
    const key = `${f.title}\u0000${f.line ?? 0}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  findings.length = 0;
  findings.push(...unique);
  if (automatic) {
    const first = surface.commands[0]!;
    findings.push(referenceFinding({ category: 'install_script', severity: 'LOW', title: `${where} runs commands by itself`, file: path, line: first.line, evidence: `${surface.commands.length} command(s); first: ${first.command.trim().slice(0, 200)}` }));
  }
  return { findings, runs };
}

export interface SelfRunCode {
  findings: AgentFinding[];
  /** Repository files the configuration makes a tool load and run, with why. */
  runs: { path: string; reason: 'automatic' | 'plugin' }[];
}

/**
 * Configuration that makes a package tool load a committed program on its own: pnpm's
 * `.pnpmfile.cjs` (its hooks run on every `pnpm install`), the plugins a `.yarnrc.yml` lists (loaded by
 * every `yarn` command), and a `pyproject.toml` in-tree build backend (`backend-path` +
 * `build-backend`) or hatch custom build hook, which `pip install .` imports as setup.py is run. The
 * program is analyzed as code that runs by itself; the LOW finding says which file loads it.
 */
export function selfRunCodeFiles(path: string, text: string, committed: (path: string) => boolean, pythonBuildHooks: (toml: string) => string[]): SelfRunCode {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const findings: AgentFinding[] = [];
  const runs: SelfRunCode['runs'] = [];
  const note = (title: string, line: number, evidence: string) => findings.push(referenceFinding({ category: 'install_script', severity: 'LOW', title, file: path, line, evidence }));
  if (/^\.pnpmfile\.[cm]?js$/.test(base)) {
    runs.push({ path, reason: 'automatic' });
    note('pnpm runs the hooks of .pnpmfile.cjs on every install', 1, base);
  } else if (base === '.yarnrc.yml') {
    for (const plugin of yarnPluginPaths(text)) {
      if (!committed(`${dir}${plugin}`)) continue;
      runs.push({ path: `${dir}${plugin}`, reason: 'plugin' });
      note('Yarn loads a committed plugin in every yarn command', lineOfNeedle(text, plugin), plugin);
    }
  } else if (base === 'pyproject.toml') {
    for (const hook of pythonBuildHooks(text)) {
      if (!committed(`${dir}${hook}`)) continue;
      runs.push({ path: `${dir}${hook}`, reason: 'automatic' });
      note('pip runs an in-tree build backend or build hook on install', lineOfNeedle(text, /backend-path/.test(text) ? 'backend-path' : 'hooks.custom'), hook);
    }
  }
  return { findings, runs };
}

function lineOfNeedle(text: string, needle: string): number {
  const i = text.indexOf(needle);
  return i === -1 ? 1 : text.slice(0, i).split('\n').length;
}

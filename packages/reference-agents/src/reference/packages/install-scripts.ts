import { posix } from 'node:path';

/** npm lifecycle scripts that run when a package is installed from the registry. */
export const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall'] as const;
/**
 * `prepare` runs on `npm install` of a git dependency or a local directory, never for a registry
 * tarball: its command is checked for the same shell red flags, but it is not itself reported.
 */
export const GIT_INSTALL_HOOKS = ['prepare', 'preprepare', 'postprepare'] as const;

export interface ScriptTarget {
  /** `/`-separated path in the package of a file the command runs. */
  path: string;
  interpreter: 'node' | 'shell' | 'python';
}

export interface ParsedScript {
  targets: ScriptTarget[];
  /** Code given inline (`node -e "…"`). */
  inlineJavaScript: string[];
}

function tokens(command: string): string[] {
  const out: string[] = [];
  const re = /"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(command); m !== null; m = re.exec(command)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** The files (and inline code) a lifecycle command runs: `node scripts/install.js`, `sh ./setup.sh`, `node -e "…"`. */
export function parseScript(command: string): ParsedScript {
  const result: ParsedScript = { targets: [], inlineJavaScript: [] };
  for (const part of command.split(/&&|\|\||;|\||&/)) {
    const t = tokens(part.trim());
    let i = 0;
    while (i < t.length && /^[A-Z_][A-Z0-9_]*=/.test(t[i]!)) i++;
    // `start /B node x.js` (Windows), `cmd /c x.bat`, `exec node x.js`, `nohup …`.
    while (i < t.length && /^(start|cmd|cmd\.exe|exec|nohup|call|\/[a-zA-Z])$/i.test(t[i]!)) i++;
    // `npx tsx x.ts`, `npx -y ts-node x.ts`, `pnpm exec tsx x.ts`: a runner fetched or found by the package manager.
    if (/^(npx|bunx|pnpx)$/.test(t[i] ?? '') || (/^(npm|pnpm|yarn)$/.test(t[i] ?? '') && /^(exec|dlx)$/.test(t[i + 1] ?? ''))) {
      i += /^(npx|bunx|pnpx)$/.test(t[i] ?? '') ? 1 : 2;
      while (i < t.length && /^-/.test(t[i]!)) i++;
    }
    const cmd = t[i];
    if (cmd === undefined) continue;
    // A runner fetched at a version (`npx -y bun@1.2.0 x.js`) is that runner; `deno run x.js` runs its file.
    const base = posix.basename(cmd.replace(/\\/g, '/')).replace(/^(bun|deno|tsx|ts-node|node)@[\w.^~*-]+$/, '$1');
    if (base === 'deno' && t[i + 1] === 'run') i++;
    if (/^(node|node\.exe|nodejs|bun|deno|tsx|ts-node)$/.test(base)) {
      for (let j = i + 1; j < t.length; j++) {
        const arg = t[j]!;
        if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') {
          if (t[j + 1] !== undefined) result.inlineJavaScript.push(t[j + 1]!);
          break;
        }
        if (arg === '-r' || arg === '--require' || arg === '--import') {
          if (t[j + 1] !== undefined && /^\.{0,2}\//.test(t[j + 1]!)) result.targets.push({ path: normalize(t[j + 1]!), interpreter: 'node' });
          j++;
          continue;
        }
        if (arg.startsWith('-')) continue;
        result.targets.push({ path: normalize(arg), interpreter: 'node' });
        break;
      }
    } else if (/^(sh|bash|zsh|dash)$/.test(base)) {
      const file = t.slice(i + 1).find((a) => !a.startsWith('-'));
      if (file !== undefined) result.targets.push({ path: normalize(file), interpreter: 'shell' });
    } else if (/^(python|python3|py)$/.test(base)) {
      const file = t.slice(i + 1).find((a) => !a.startsWith('-'));
      if (file !== undefined) result.targets.push({ path: normalize(file), interpreter: 'python' });
    } else if (/^(powershell|pwsh|powershell\.exe)$/i.test(base)) {
      const file = t.slice(i + 1).find((a) => /\.ps1$/i.test(a));
      if (file !== undefined) result.targets.push({ path: normalize(file), interpreter: 'shell' });
    } else if (/^\.{0,2}\//.test(cmd) || /\.(sh|js|cjs|mjs|bat|cmd|ps1)$/i.test(cmd)) {
      result.targets.push({ path: normalize(cmd), interpreter: /\.(js|cjs|mjs)$/.test(cmd) ? 'node' : 'shell' });
    }
  }
  return result;
}

function normalize(path: string): string {
  return posix.normalize(path.replace(/\\/g, '/')).replace(/^\.\//, '');
}

/** The package file a `node x` target or a relative `require('./x')` names (extension and index.js resolution). */
export function resolveModulePath(spec: string, fromDir: string, exists: (path: string) => boolean): string | null {
  const joined = posix.normalize(posix.join(fromDir, spec)).replace(/^\.\//, '');
  if (joined.startsWith('..')) return null;
  // TypeScript sources import `./x.js` for the file `./x.ts`.
  const typescript = joined.replace(/\.([cm]?)js$/, '.$1ts');
  for (const candidate of [joined, `${joined}.js`, `${joined}.cjs`, `${joined}.mjs`, `${joined}/index.js`, typescript, `${joined}.ts`, `${joined}/index.ts`]) if (exists(candidate)) return candidate;
  return null;
}

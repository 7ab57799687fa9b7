import type { CodeLanguage } from './run-code-findings.js';

// `globalSetup: './test/global-setup.ts'`, `setupFiles: ['<rootDir>/jest.setup.js']`,
// `setupFilesAfterEnv: [...]`, Vitest's `globalSetup`/`setupFiles`: files a test run imports first.
const SETUP_KEY = /\b(globalSetup|globalTeardown|setupFiles(?:AfterEnv)?)\s*:\s*(\[[^\]]{0,2000}\]|(["'`])[^"'`\n]{1,300}\3)/g;
const QUOTED = /(["'`])([^"'`\n]{1,300})\1/g;

/** Repository paths of the setup files a Jest or Vitest configuration names, relative to the checkout. */
export function testSetupFiles(configPath: string, text: string): string[] {
  if (!/globalSetup|globalTeardown|setupFiles/.test(text)) return [];
  const dir = configPath.includes('/') ? configPath.slice(0, configPath.lastIndexOf('/') + 1) : '';
  const out: string[] = [];
  for (const m of text.matchAll(SETUP_KEY)) {
    for (const q of m[2]!.matchAll(QUOTED)) {
      const rel = q[2]!.replace(/^<rootDir>\//, '').replace(/^\.\//, '');
      // Package names (`jest-extended/all`) resolve in node_modules, which is not the repository's code.
      if (rel.includes('..') || rel.startsWith('/') || !/\.(m?[jt]sx?|c[jt]s)$/.test(rel)) continue;
      out.push(`${dir}${rel}`);
    }
  }
  return out;
}

/** The language a `#!` line names, or null when the file does not start with one this analysis reads. */
export function shebangLanguage(text: string): CodeLanguage | null {
  const first = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (first === null) return null;
  const program = (/\/env$/.test(first[1]!) ? (first[2] ?? '') : first[1]!).replace(/^.*\//, '');
  if (/^(ba|z|da|k)?sh$/.test(program)) return 'shell';
  if (/^(node|bun|deno|tsx)$/.test(program)) return 'javascript';
  if (/^python[0-9.]*$/.test(program)) return 'python';
  return null;
}

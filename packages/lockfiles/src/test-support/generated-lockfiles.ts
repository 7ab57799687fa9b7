/**
 * Lockfiles of any size in each tool's shape, for the tests of bounds and scale: package `pkg-<i>`
 * depends on `pkg-<i+1>` (one long chain, the worst case for a graph walk) and the root names the
 * first half of them directly.
 */
export type GeneratedFormat = 'package-lock' | 'pnpm-lock' | 'yarn-classic' | 'yarn-berry' | 'bun-lock' | 'uv-lock' | 'requirements-txt';

export function generatedLockfile(format: GeneratedFormat, count: number): string {
  const ids = Array.from({ length: count }, (_, i) => i);
  const name = (i: number) => `pkg-${i}`;
  const next = (i: number) => (i + 1 < count ? [name(i + 1)] : []);
  const direct = ids.filter((i) => i < count / 2);
  switch (format) {
    case 'package-lock': {
      const packages: Record<string, unknown> = { '': { name: 'root', dependencies: Object.fromEntries(direct.map((i) => [name(i), '1.0.0'])) } };
      for (const i of ids) packages[`node_modules/${name(i)}`] = { version: '1.0.0', dependencies: Object.fromEntries(next(i).map((n) => [n, '1.0.0'])) };
      return JSON.stringify({ name: 'root', lockfileVersion: 3, packages }, null, 2);
    }
    case 'pnpm-lock': {
      const lines = ["lockfileVersion: '9.0'", 'importers:', '  .:', '    dependencies:'];
      for (const i of direct) lines.push(`      ${name(i)}: {specifier: 1.0.0, version: 1.0.0}`);
      lines.push('packages:');
      for (const i of ids) lines.push(`  ${name(i)}@1.0.0: {resolution: {integrity: sha512-x}}`);
      lines.push('snapshots:');
      for (const i of ids) lines.push(next(i).length ? `  ${name(i)}@1.0.0: {dependencies: {${next(i)[0]}: 1.0.0}}` : `  ${name(i)}@1.0.0: {}`);
      return `${lines.join('\n')}\n`;
    }
    case 'yarn-classic': {
      const lines = ['# yarn lockfile v1', ''];
      for (const i of ids) {
        lines.push('', `${name(i)}@1.0.0:`, '  version "1.0.0"', `  resolved "https://registry.yarnpkg.com/${name(i)}/-/${name(i)}-1.0.0.tgz#abc"`);
        if (next(i).length) lines.push('  dependencies:', `    ${next(i)[0]} "1.0.0"`);
      }
      return `${lines.join('\n')}\n`;
    }
    case 'yarn-berry': {
      const lines = ['__metadata:', '  version: 8', '', '"root@workspace:.":', '  version: 0.0.0-use.local', '  resolution: "root@workspace:."', '  dependencies:'];
      for (const i of direct) lines.push(`    ${name(i)}: "npm:1.0.0"`);
      for (const i of ids) {
        lines.push('', `"${name(i)}@npm:1.0.0":`, '  version: 1.0.0', `  resolution: "${name(i)}@npm:1.0.0"`);
        if (next(i).length) lines.push('  dependencies:', `    ${next(i)[0]}: "npm:1.0.0"`);
      }
      return `${lines.join('\n')}\n`;
    }
    case 'bun-lock': {
      const packages = Object.fromEntries(ids.map((i) => [name(i), [`${name(i)}@1.0.0`, '', { dependencies: Object.fromEntries(next(i).map((n) => [n, '1.0.0'])) }, 'sha512-x']]));
      return JSON.stringify({ lockfileVersion: 1, workspaces: { '': { name: 'root', dependencies: Object.fromEntries(direct.map((i) => [name(i), '1.0.0'])) } }, packages });
    }
    case 'uv-lock': {
      const lines = ['version = 1', '', '[[package]]', 'name = "root"', 'version = "0.1.0"', 'source = { virtual = "." }', 'dependencies = ['];
      for (const i of direct) lines.push(`    { name = "${name(i)}" },`);
      lines.push(']');
      for (const i of ids) {
        lines.push('', '[[package]]', `name = "${name(i)}"`, 'version = "1.0.0"', 'source = { registry = "https://pypi.org/simple" }');
        if (next(i).length) lines.push(`dependencies = [{ name = "${next(i)[0]}" }]`);
      }
      return `${lines.join('\n')}\n`;
    }
    case 'requirements-txt':
      return `${ids.map((i) => `${name(i)}==1.0.0 \\\n    --hash=sha256:${'a'.repeat(64)}`).join('\n')}\n`;
  }
}

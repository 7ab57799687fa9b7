import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const THROUGH_ENTRY_POINTS = { group: ['@vigil/*/src/*', '@vigil/*/dist/*', '**/apps/server/**'], message: 'import a package through its entry point' };

export default tseslint.config(
  // packages/agents/eval/corpus holds defanged malware samples: data, never linted.
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'packages/agents/eval/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Packages talk to each other only through their public entry points.
      'no-restricted-imports': ['error', { patterns: [THROUGH_ENTRY_POINTS] }],
    },
  },
  {
    // SQLite and PostgreSQL are told apart only in db/: everything else calls the intent-named
    // helpers of db/dialect.ts (lockForUpdate, skipLockedClause, …), so no dialect branch creeps
    // back into services or the scheduler (docs/contributing.md, "Add a table").
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            THROUGH_ENTRY_POINTS,
            { group: ['**/dialect', '**/dialect.js'], importNames: ['dialectOf'], message: 'use the intent-named helpers of db/dialect.ts; dialectOf stays in db/' },
          ],
        },
      ],
    },
  },
  {
    // Libraries run in browsers and edge runtimes: no Node built-ins on their main path.
    files: ['packages/core/src/**/*.ts', 'packages/webhooks/src/**/*.ts', 'packages/client/src/**/*.ts'],
    // packages/client/src/node/ is the `@vigil/client/node` subpath: Node only by its name.
    ignores: ['**/*.test.ts', '**/test-support/**', 'packages/client/src/node/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'libraries must not import Node built-ins' }, { group: ['@vigil/*/src/*', '@vigil/*/dist/*'], message: 'import a package through its entry point' }] }],
    },
  },
  {
    // The HTTP layer is thin: handlers call services, which own every query (docs/contributing.md).
    // Type imports stay allowed: routes hand the database handle to services without querying.
    files: ['apps/server/src/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['kysely'], allowTypeImports: true, message: 'queries belong in src/services or src/repositories' },
            { group: ['**/db/*'], allowTypeImports: true, message: 'queries belong in src/services or src/repositories' },
          ],
        },
      ],
    },
  },
  {
    // zod's `z` object reaches every locale and cannot be tree-shaken; the namespace import can.
    // One `import { z }` puts ~65 KB gzipped into every browser bundle of @vigil/client
    // (docs/benchmarks.md, "Browser bundle size").
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: "use `import * as z from 'zod'`: the `z` object cannot be tree-shaken",
        },
      ],
    },
  },
);

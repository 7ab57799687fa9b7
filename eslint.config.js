import { dirname, relative, resolve } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// apps/server/src is laid out by feature (docs/contributing.md, "The shape"): platform/ is what every
// feature builds on and imports no feature; a feature's files reach another feature only through
// its index.ts, so what a feature offers the rest is one file to read and its insides can move.
// Resolved paths, not specifier patterns: `../x.js` is inside or outside a feature depending on
// where the importing file sits.
const featureBoundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      platform: 'platform/ imports no feature: move what both need into platform/, or pass it in from the composition root',
      internals: "import feature '{{feature}}' through features/{{feature}}/index.js, not its internals",
    },
  },
  create(context) {
    const file = context.filename;
    const at = file.indexOf('/apps/server/src/');
    if (at < 0) return {};
    const srcRoot = file.slice(0, at + '/apps/server/src'.length);
    const own = relative(srcRoot, file);
    const ownFeature = own.match(/^features\/([^/]+)\//)?.[1];
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = relative(srcRoot, resolve(dirname(file), spec));
      const match = target.match(/^features\/([^/]+)(?:\/(.*))?$/);
      if (!match) return;
      if (own.startsWith('platform/')) context.report({ node, messageId: 'platform' });
      else if (match[1] !== ownFeature && match[2] !== 'index.js') context.report({ node, messageId: 'internals', data: { feature: match[1] } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      TSImportType: (node) => check(node, node.argument?.literal?.value ?? node.argument?.value),
    };
  },
};

const THROUGH_ENTRY_POINTS = { group: ['@vigil/*/src/*', '@vigil/*/dist/*', '**/apps/server/**'], message: 'import a package through its entry point' };

export default tseslint.config(
  // packages/reference-agents/eval/corpus holds defanged malware samples: data, never linted.
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'packages/reference-agents/eval/**'] },
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
    // Unit tests sit beside their modules and may read another feature's internals to set a case up.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**'],
    plugins: { vigil: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: { 'vigil/feature-boundaries': 'error' },
  },
  {
    // SQLite and PostgreSQL are told apart only in platform/db/: everything else calls the intent-named
    // helpers of platform/db/dialect.ts (lockForUpdate, skipLockedClause, …), so no dialect branch creeps
    // back into the features (docs/contributing.md, "One dialect seam").
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/platform/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            THROUGH_ENTRY_POINTS,
            { group: ['**/dialect', '**/dialect.js'], importNames: ['dialectOf'], message: 'use the intent-named helpers of platform/db/dialect.ts; dialectOf stays in platform/db/' },
          ],
        },
      ],
    },
  },
  {
    // @vigil/sandbox is all a validator installs to run any miner's agent: it never reaches for the
    // reference agents (or @vigil/agents, which re-exports them), their parsers or their corpus.
    files: ['packages/sandbox/**/*.{ts,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            THROUGH_ENTRY_POINTS,
            { group: ['@vigil/reference-agents', '@vigil/reference-agents/*', '@vigil/agents', '@vigil/agents/*', '**/reference-agents/**'], message: '@vigil/sandbox does not depend on the reference agents' },
          ],
        },
      ],
    },
  },
  {
    // Libraries run in browsers and edge runtimes: no Node built-ins on their main path.
    files: ['packages/core/src/**/*.ts', 'packages/webhooks/src/**/*.ts', 'packages/client/src/**/*.ts', 'packages/tlog/src/**/*.ts'],
    // packages/client/src/node/ is the `@vigil/client/node` subpath: Node only by its name.
    ignores: ['**/*.test.ts', '**/test-support/**', 'packages/client/src/node/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'libraries must not import Node built-ins' }, { group: ['@vigil/*/src/*', '@vigil/*/dist/*'], message: 'import a package through its entry point' }] }],
    },
  },
  {
    // Routes are thin: handlers call the feature's modules, which own every query (docs/contributing.md).
    // Type imports stay allowed: routes hand the database handle to services without querying.
    files: ['apps/server/src/platform/http/**/*.ts', 'apps/server/src/**/*-routes.ts', 'apps/server/src/app.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['kysely'], allowTypeImports: true, message: "queries belong in the feature's modules beside its routes" },
            { group: ['**/db/*'], allowTypeImports: true, message: "queries belong in the feature's modules beside its routes" },
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

import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDirectory = path.join(import.meta.dirname, 'src/server/features');
const serverFeatures = fs
  .readdirSync(featuresDirectory, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Code outside src/shared reaches it through the package's import alias, never a climb of '../'. */
const sharedThroughAlias = {
  regex: '^(\\.\\.?/)+(src/)?shared/',
  message: "Import src/shared through its alias: '#shared/money', not a relative path.",
};

/** A file whose name says it holds database access: `repository.ts`, or `something-repository.ts`. */
const REPOSITORY_FILE = '([a-z0-9-]+-)?repository(\\.ts)?$';
const REPOSITORY_SOURCE = new RegExp(`(^|/)${REPOSITORY_FILE}`);

/**
 * A feature reads or changes another feature's data through that feature's service, never its
 * repository: the service is where the other feature's rules live.
 */
const featureBoundaries = serverFeatures.map((feature) => ({
  files: [`src/server/features/${feature}/**/*.ts`],
  rules: restrictedImports([
    sharedThroughAlias,
    {
      regex: `^(\\.\\./)+(features/)?(?!${feature}/)[a-z0-9-]+/${REPOSITORY_FILE}`,
      message: `Use the other feature's service: src/server/features/${feature} may not import another feature's repository.`,
    },
  ]),
}));

/**
 * The rule that a feature's repository is its own would mean nothing if its service handed the
 * repository's functions on: a feature's module may not re-export what it imports from a repository.
 */
const noRepositoryReexport = {
  meta: { type: 'problem', schema: [], messages: { reexport: "Do not hand a repository's code on: write a service function with the rule in it." } },
  create(context) {
    const fromRepository = new Set();
    const isRepository = (source) => REPOSITORY_SOURCE.test(source);
    return {
      ImportDeclaration(node) {
        if (!isRepository(node.source.value)) return;
        for (const specifier of node.specifiers) fromRepository.add(specifier.local.name);
      },
      ExportNamedDeclaration(node) {
        if (node.source && isRepository(node.source.value)) context.report({ node, messageId: 'reexport' });
        else if (!node.source && node.specifiers.some((specifier) => fromRepository.has(specifier.local.name))) context.report({ node, messageId: 'reexport' });
      },
      ExportAllDeclaration(node) {
        if (isRepository(node.source.value)) context.report({ node, messageId: 'reexport' });
      },
    };
  },
};

/**
 * ESLint's no-restricted-imports reads static imports only: `import('../other-feature/page.tsx')` would walk
 * round every boundary above. This rule holds a dynamic import whose path is written out to the same patterns.
 */
const noRestrictedDynamicImports = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { patterns: { type: 'array' } }, additionalProperties: false }],
    messages: { restricted: "'{{source}}' is restricted from being used by a pattern. {{message}}" },
  },
  create(context) {
    const patterns = (context.options[0]?.patterns ?? []).map((pattern) => ({ regex: new RegExp(pattern.regex), message: pattern.message }));
    return {
      ImportExpression(node) {
        const source =
          node.source.type === 'Literal'
            ? node.source.value
            : node.source.type === 'TemplateLiteral' && node.source.expressions.length === 0
              ? node.source.quasis[0].value.cooked
              : null;
        if (typeof source !== 'string') return;
        const pattern = patterns.find((candidate) => candidate.regex.test(source));
        if (pattern) context.report({ node, messageId: 'restricted', data: { source, message: pattern.message } });
      },
    };
  },
};

/** The same import patterns refused in static imports and in dynamic ones. */
function restrictedImports(patterns) {
  return {
    'no-restricted-imports': ['error', { patterns }],
    'boundaries/no-restricted-dynamic-imports': ['error', { patterns }],
  };
}

const boundariesPlugin = { rules: { 'no-repository-reexport': noRepositoryReexport, 'no-restricted-dynamic-imports': noRestrictedDynamicImports } };

const webFeaturesDirectory = path.join(import.meta.dirname, 'src/web/features');
const webFeatures = fs
  .readdirSync(webFeaturesDirectory, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// Relative paths only: a package's own server entry (react-dom/server, for the pages drawn at build time) is no server of ours.
const serverToWeb = {
  regex: '^(\\.{1,2}/)+(.*/)?server(/|$)',
  message: 'The web app talks to the server over HTTP only: import from src/shared, never from src/server.',
};

/** On the web, a feature uses another one only through what that feature's `index.ts` offers. */
const webFeatureBoundaries = webFeatures.map((feature) => ({
  files: [`src/web/features/${feature}/**/*.{ts,tsx}`],
  rules: restrictedImports([
    sharedThroughAlias,
    serverToWeb,
    {
      regex: `^(\\.\\./)+(features/)?(?!${feature}/)(${webFeatures.join('|')})/(?!index\\.ts$).+`,
      message: `Import another feature through its index.ts: src/web/features/${feature} may use only what the other feature's index.ts offers.`,
    },
  ]),
}));

export default tseslint.config(
  { ignores: ['dist/', '.build/', 'data/', 'node_modules/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { boundaries: boundariesPlugin },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // Rules that need the types: a promise nobody awaits loses its failure, and a switch over
    // a union must name every member (or say why a default is enough).
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    files: ['src/server/**/*.ts', 'tests/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    rules: restrictedImports([sharedThroughAlias]),
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrictedImports([sharedThroughAlias, serverToWeb]),
    },
  },
  {
    // Layout and UI components are used by features; they use none.
    files: ['src/web/components/**/*.{ts,tsx}'],
    rules: restrictedImports([
      sharedThroughAlias,
      serverToWeb,
      { regex: '(^|/)features(/|$)', message: 'Components are used by features and use none: pass what a feature knows in as props.' },
    ]),
  },
  {
    // The platform is what features stand on: it never reaches up into one.
    files: ['src/server/platform/**/*.ts'],
    rules: restrictedImports([
      sharedThroughAlias,
      { regex: '(^|/)features(/|$)', message: 'src/server/platform may not import a feature: features use the platform, not the other way round.' },
    ]),
  },
  {
    // No import cycles, between files or (through the rules above) between features.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/server/features/**/*.ts'],
    rules: { 'boundaries/no-repository-reexport': 'error' },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrictedImports([
      { regex: '(^|/)(server|web)(/|$)', message: 'src/shared is used by the server and the web app alike: it imports neither.' },
      { regex: '^node:', message: 'src/shared runs in the browser too: no Node APIs.' },
    ]),
  },
  ...featureBoundaries,
  ...webFeatureBoundaries,
);

import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
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

/**
 * A feature reads or changes another feature's data through that feature's service, never its
 * repository: the service is where the other feature's rules live.
 */
const featureBoundaries = serverFeatures.map((feature) => ({
  files: [`src/server/features/${feature}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          sharedThroughAlias,
          {
            regex: `^(\\.\\./)+(features/)?(?!${feature}/)[a-z0-9-]+/repository(\\.ts)?$`,
            message: `Use the other feature's service: src/server/features/${feature} may not import another feature's repository.`,
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/', '.build/', 'data/', 'node_modules/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
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
    rules: { 'no-restricted-imports': ['error', { patterns: [sharedThroughAlias] }] },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        { patterns: [sharedThroughAlias, { regex: '(^|/)server(/|$)', message: 'The web app talks to the server over HTTP only: import from src/shared, never from src/server.' }] },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)(server|web)(/|$)', message: 'src/shared is used by the server and the web app alike: it imports neither.' },
            { regex: '^node:', message: 'src/shared runs in the browser too: no Node APIs.' },
          ],
        },
      ],
    },
  },
  ...featureBoundaries,
);

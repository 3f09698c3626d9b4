// Lint: TypeScript rules plus the one-way imports of the architecture:
//   generated -> domain -> machines -> src ; domain -> server ; nothing imports tests/.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// The feature folders that exist (src/features/<name>), read from the tree: a new folder is bounded at once.
const FEATURES = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

const noTests = { group: ['**/tests/**', '../tests/*', '../../tests/*'], message: 'Nothing imports tests/.' };

function restrict(patterns, paths = []) {
  return { 'no-restricted-imports': ['error', { patterns, paths }] };
}

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'node_modules/**', 'generated/**', '.data/**', 'bench/results/**', 'playwright-report/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { patterns: [noTests] }],
    },
  },
  {
    files: ['domain/**/*.ts'],
    rules: restrict(
      [
        noTests,
        { group: ['react', 'react-*', 'react/*', 'xstate', 'xstate/*', '@xstate/*', '@statelyai/*'], message: 'domain/ is pure: no React or XState.' },
        { group: ['pg', '@electric-sql/*', 'fastify', '@fastify/*', 'socket.io*', 'openapi-fetch', 'node:*'], message: 'domain/ is pure: no database, server, network or Node APIs.' },
        { group: ['**/machines/**', '**/src/**', '**/server/**', '../machines/*', '../src/*', '../server/*'], message: 'domain/ imports nothing of the app.' },
      ],
    ),
  },
  {
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error',
        { name: 'fetch', message: 'domain/ is pure: no fetch.' },
        { name: 'XMLHttpRequest', message: 'domain/ is pure: no network.' },
        { name: 'localStorage', message: 'domain/ is pure: no storage.' },
        { name: 'window', message: 'domain/ is pure: no browser globals.' },
        { name: 'document', message: 'domain/ is pure: no browser globals.' }],
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      ...restrict([
        noTests,
        { group: ['**/src/**', '**/server/**', '../src/*', '../server/*', '../../src/*', '../../server/*', '../../../src/*', '../../../server/*'], message: 'machines/ never import src/ or server/.' },
        { group: ['react', 'react-dom', 'openapi-fetch', 'socket.io-client', 'pg', '@electric-sql/*', 'fastify'], message: 'machines/ declare actors; the app provides them.' },
      ]),
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Machines never fetch: declare an actor in setup() and let src/api provide it.' }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: restrict([
      noTests,
      { group: ['**/src/**', '**/machines/**', '../src/*', '../machines/*', '../../src/*', '../../machines/*'], message: 'server/ uses domain/ and generated/ only.' },
      { group: ['react', 'react-dom', 'xstate', '@xstate/*'], message: 'server/ has no React or XState.' },
    ]),
  },
  {
    files: ['generated/**/*.ts'],
    rules: restrict([noTests, { group: ['**/domain/**', '**/machines/**', '**/src/**', '**/server/**'], message: 'generated/ stands alone.' }]),
  },
  // Features do not import each other: src/features/<a>/** may not import src/features/<b>/**.
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: restrict([
      noTests,
      {
        group: FEATURES.filter((f) => f !== feature).flatMap((f) => [`**/features/${f}`, `**/features/${f}/**`, `../${f}`, `../${f}/**`]),
        message: 'Features do not import each other; combine them in src/app routes.',
      },
      { group: ['**/server/**', '../../../server/*'], message: 'The browser never imports server/.' },
    ]),
  })),
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['tests/**/*.{ts,tsx}', 'bench/**/*.{ts,mjs}', 'scripts/**/*.mjs'],
    rules: { 'no-restricted-imports': 'off' },
  },
);

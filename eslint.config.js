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

// Which feature may import which: a one-way graph over the folders that exist (checked below).
//   checkout: the purchase panel, checkout form, cart lines, registration and the checkout actor.
//   cart (/cart), course (the course page) and product (the product page) compose the checkout;
//   the product page reuses the course page's description and deferred checkout; the product page
//   and /cart read the purchase data through the course loader (one bundle chunk for it).
// Every other feature stands alone; src/app/routes.tsx combines them (and passes the payment host in).
const FEATURE_IMPORTS = {
  cart: ['checkout', 'course'],
  course: ['checkout'],
  product: ['course', 'checkout'],
};
for (const [from, tos] of Object.entries(FEATURE_IMPORTS)) {
  for (const name of [from, ...tos]) {
    if (!FEATURES.includes(name)) throw new Error(`eslint.config.js: src/features/${name} does not exist`);
  }
}

(function acyclic() {
  const state = new Map();
  const visit = (name, path) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'open') throw new Error(`eslint.config.js: features import in a circle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'open');
    for (const next of FEATURE_IMPORTS[name] ?? []) visit(next, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of FEATURES) visit(name, []);
})();

/** An import path that reaches one of `names` (src/features/<name>), relative or not. */
function featureImport(names) {
  const any = `(${names.join('|')})`;
  return `^(\\.\\./)+${any}(/|$)|/features/${any}(/|$)`;
}

const noTests = { group: ['**/tests/**', '../tests/*', '../../tests/*'], message: 'Nothing imports tests/.' };
/** The forms' zod is zod/mini: the checkout carries classic zod at 4× the size (docs/design/toolchain.md). */
const zodMini = { name: 'zod', message: "Import 'zod/mini': classic zod is 4× its size in the checkout's code." };

function restrict(patterns, paths = [zodMini]) {
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
      'no-restricted-imports': ['error', { patterns: [noTests], paths: [zodMini] }],
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
  // A feature imports only the features FEATURE_IMPORTS gives it: src/features/<a>/** may not import
  // src/features/<b>/** otherwise.
  ...FEATURES.map((feature) => {
    // '../cart/x' from a feature's top, '../../cart/x' from its components/, 'features/cart/x' from elsewhere.
    const others = featureImport(FEATURES.filter((f) => f !== feature && !(FEATURE_IMPORTS[feature] ?? []).includes(f)));
    const message = `src/features/${feature} may import ${(FEATURE_IMPORTS[feature] ?? []).join(', ') || 'no other feature'} (FEATURE_IMPORTS); combine features in src/app routes.`;
    return {
      files: [`src/features/${feature}/**/*.{ts,tsx}`],
      rules: {
        ...restrict([noTests, { regex: others, message }, { group: ['**/server/**', '../../../server/*'], message: 'The browser never imports server/.' }]),
        // A lazy import() is an import too (no-restricted-imports sees only static ones); '/' written as \x2F for the selector.
        'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${others.replaceAll('/', '\\x2F')}/]`, message }],
      },
    };
  }),
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

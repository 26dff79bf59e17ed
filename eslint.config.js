// One ESLint configuration for the whole repository. The rules chosen catch bugs; layout is Prettier's job.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Route files are handed their services by the composition root; building one there splits the object graph again. */
const COMPOSITION_MESSAGE = 'Route files receive their services from the composition root (server/src/composition/); do not build them here.';

export default defineConfig(
  {
    ignores: ['**/node_modules/', '**/dist/', '**/data/', '**/coverage/', '**/test-results/', '**/playwright-report/', 'bench/results/', 'docs/screenshots/'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // Kept off on purpose (typescript-eslint's strict set has it): the code base asserts non-null where a lookup was just
      // checked or a schema guaranteed the value, and rewriting each one would add noise, not safety.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A leading underscore marks a parameter or binding that is kept for its position (callbacks, destructuring that drops a key).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-self-compare': 'error',
      'no-unreachable-loop': 'error',
      'no-constructor-return': 'error',
      'no-new-wrappers': 'error',
      'no-throw-literal': 'error',
      'prefer-promise-reject-errors': 'error',
    },
  },
  {
    // Migrations are written against the schema as it was then, not today's typed one: Kysely<any> is the documented way.
    files: ['server/src/db/migrations.ts', 'server/src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Test helpers hand back parsed JSON answers untyped on purpose; the assertions are what check their shape.
    files: ['**/*.test.{ts,tsx}', 'server/test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['server/**', 'contract/**', 'bench/**', 'scripts/**', 'e2e/**', '*.config.{js,ts}', 'web/vite.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Playwright's page.evaluate callbacks run in the browser.
    files: ['e2e/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'NewExpression[callee.name=/^[A-Z]\\w*Service$/]', message: COMPOSITION_MESSAGE },
        { selector: 'NewExpression[callee.name=/^[A-Z]\\w*Repository$/]', message: COMPOSITION_MESSAGE },
        { selector: 'CallExpression[callee.name=/^create[A-Z]\\w*Service$/]', message: COMPOSITION_MESSAGE },
      ],
    },
  },
);

import { builtinModules } from 'node:module';
import path from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const browserCode = ['src/app/**', 'src/features/**', 'src/lib/**'];
const serverCode = ['src/bff/**', 'src/service/**', 'src/server-shared/**', 'src/start.ts'];
// typescript-eslint turns off no-undef (TypeScript resolves names), so `globals` alone would not
// keep Node out of the browser or the DOM out of the servers: the other side's names are banned.
const onlyIn = (side, other) => Object.keys(side).filter((name) => !(name in other));
const nodeOnly = onlyIn(globals.node, globals.browser);
const domOnly = onlyIn(globals.browser, globals.node);
const banGlobals = (names, message) => ['error', ...names.map((name) => ({ name, message }))];
const isTestFile = (file) => /\.test\.tsx?$/.test(file) || file.split(path.sep).includes('testing');

/**
 * Where a module of src/ may import from. The rule resolves `@/…` and relative specifiers to a
 * folder, so `../../console/x` from the wizard is caught as surely as `@/features/console/x`.
 * Returns the reason an import is refused, or null.
 */
function boundaryViolation(fromFile, toFile) {
  const from = path.relative(root, fromFile).split(path.sep);
  const to = path.relative(root, toFile).split(path.sep);
  if (from[0] !== 'src') return null;
  const [fromArea, fromFeature] = from.slice(1);
  const [toArea, toFeature] = to[0] === 'src' ? to.slice(1) : [to[0]];
  const browser = ['app', 'features', 'lib'];
  const server = ['bff', 'service', 'server-shared'];
  if (fromArea === 'features' && toArea === 'features' && toFeature !== fromFeature)
    return `features do not import each other (${fromFeature} → ${toFeature}): move what both need to src/lib or src/shared`;
  if (fromArea === 'lib' && (toArea === 'app' || toArea === 'features'))
    return 'src/lib is used by the app and the features, so it imports neither';
  if (fromArea === 'bff' && toArea === 'service')
    return 'the BFF talks to the service over HTTP only (the hosted service has no code to import)';
  if (fromArea === 'server-shared' && (toArea === 'bff' || toArea === 'service'))
    return 'src/server-shared is used by the BFF and the service, so it imports neither';
  if (server.includes(fromArea) && browser.includes(toArea))
    return 'server code does not import browser code';
  if (isTestFile(fromFile)) return null;
  if (browser.includes(fromArea) && server.includes(toArea))
    return 'browser code does not import server code';
  if (to[0] === 'e2e' || to.includes('testing') || /\.test\.tsx?$/.test(toFile))
    return 'production code does not import test code (e2e/, testing/ folders, *.test.ts)';
  return null;
}

const boundaries = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const check = (node, source) => {
          if (typeof source?.value !== 'string') return;
          const spec = source.value;
          let target = null;
          if (spec.startsWith('@/')) target = path.join(root, 'src', spec.slice(2));
          else if (spec.startsWith('.')) target = path.resolve(path.dirname(context.filename), spec);
          const reason = target && boundaryViolation(context.filename, target);
          if (reason) context.report({ node, message: `${spec}: ${reason}.` });
        };
        return {
          ImportDeclaration: (node) => check(node, node.source),
          ExportAllDeclaration: (node) => check(node, node.source),
          ExportNamedDeclaration: (node) => check(node, node.source),
          ImportExpression: (node) => check(node, node.source),
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'node_modules', 'data', 'test-results', 'playwright-report', 'public'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { boundaries },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'boundaries/imports': 'error',
    },
  },
  {
    // Tooling, scripts and Playwright specs run in Node; the specs also pass functions to the page.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['src/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Browser code sees the DOM and nothing of Node: a `process` or `Buffer` there would only
    // break in the bundle.
    files: browserCode,
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'no-restricted-globals': banGlobals(nodeOnly, 'Browser code has no Node globals.'),
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({ name, message: 'Browser code imports no Node module.' })),
          patterns: [{ group: ['node:*'], message: 'Browser code imports no Node module.' }],
        },
      ],
    },
  },
  {
    // Unit tests beside browser code run in Vitest under Node.
    files: browserCode.map((glob) => `${glob}/*.test.{ts,tsx}`),
    languageOptions: { globals: globals.node },
    rules: { 'no-restricted-imports': 'off', 'no-restricted-globals': 'off' },
  },
  {
    // Server code sees Node and nothing of the DOM.
    files: serverCode,
    languageOptions: { globals: globals.node },
    rules: { 'no-restricted-globals': banGlobals(domOnly, 'Server code has no DOM globals.') },
  },
  {
    // src/shared is used by the browser, the BFF and the service alike: zod and nothing else, and
    // only the globals both sides have.
    files: ['src/shared/**/*.ts'],
    languageOptions: { globals: globals['shared-node-browser'] },
    rules: {
      'no-restricted-globals': banGlobals(
        [...nodeOnly, ...domOnly],
        'src/shared runs in the browser and in Node: only globals both have.',
      ),
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    ignores: ['src/shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!zod|\\.|@/shared/).*', message: 'src/shared imports zod and nothing else.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.test.ts'],
    languageOptions: { globals: globals.node },
    rules: { 'no-restricted-globals': 'off' },
  },
  prettier,
);

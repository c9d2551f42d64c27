// `npm run lint`: the owner app's import directions (README "Layout"), checked by
// eslint-plugin-boundaries on every source file that is not a test:
//
//   app -> features -> components, lib, config, api-types
//
// components, lib and config never import a feature or app/; features never import app/; a
// feature is imported from outside only through its index.ts (inside it, files import each
// other freely). config may import the generated api-types (the page config's type). Tests
// (*.test.ts(x), src/test/) may reach anything, e.g. the whole route table.
import tsParser from '@typescript-eslint/parser';
import boundaries from 'eslint-plugin-boundaries';

const elements = [
  { type: 'app', pattern: 'src/app' },
  { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
  { type: 'components', pattern: 'src/components' },
  { type: 'lib', pattern: 'src/lib' },
  /** The API's answer types, generated from the server's structs (src/http/api/typescript.rs). */
  { type: 'api-types', pattern: 'src/api-types' },
  { type: 'config', pattern: 'src/config' },
];
/** main.tsx, which mounts the app, is a file of its own. */
const files = [{ category: 'entry', pattern: 'src/main.tsx' }];

const to = (...types) => ({ to: { element: { types: { anyOf: types } } } });
/** Another feature, through the front door only. */
const featureIndex = { to: { element: { type: 'feature', fileInternalPath: 'index.ts' } } };

export default [
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/test/**'],
    languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/files': files,
      'boundaries/include': ['src/**/*'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.css', '.json'] } },
    },
    rules: {
      'boundaries/no-unknown-files': 'error',
      // The fixtures and e2e helpers outside src/ are not elements; the app never reads them.
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/tests/**', '**/e2e/**'], message: 'Only tests read tests/ and e2e/.' }] },
      ],
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          checkUnknownLocals: true,
          policies: [
            { from: { file: { categories: 'entry' } }, allow: to('app', 'components', 'lib', 'config') },
            {
              from: { element: { type: 'app' } },
              allow: [to('components', 'lib', 'config', 'api-types'), featureIndex],
            },
            {
              from: { element: { type: 'feature' } },
              allow: [to('components', 'lib', 'config', 'api-types'), featureIndex],
            },
            { from: { element: { type: 'components' } }, allow: to('lib', 'config') },
            { from: { element: { type: 'lib' } }, allow: to('config') },
            { from: { element: { type: 'config' } }, allow: to('lib', 'api-types') },
            { from: { element: { type: 'api-types' } }, allow: to('api-types') },
          ],
        },
      ],
    },
  },
];

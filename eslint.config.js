import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'reports/', 'src/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // The core knows no transport and no platform: it runs in node:http, Express, MSW and a browser alike.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'The core imports nothing from Node: take it as a dependency instead.' },
            {
              group: ['express', 'body-parser', 'cors', 'pino', 'pino-*', 'msw', 'msw/*', 'undici'],
              message: 'The core imports no server framework, logger or transport: adapters do.',
            },
            {
              group: ['../node/*', '../../node/*', '../adapters/*', '../../adapters/*', '../persistence/*'],
              message: 'The core never imports an adapter.',
            },
          ],
          paths: ['fs', 'path', 'http', 'https', 'zlib', 'crypto', 'os', 'stream', 'url', 'child_process'].map(
            (name) => ({ name, message: 'The core imports nothing from Node.' }),
          ),
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

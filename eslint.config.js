import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/core, bottom to top (docs/architecture.md has the same
 * table). A folder imports its own files and the folders of the layers below
 * it: never a folder beside it in its layer, nor one above it, so that no two
 * folders import each other. The files at the top of src/core
 * (create-mock-core.ts, handle-request.ts) may import any folder; no folder
 * imports them.
 */
export const coreLayers = [
  ['support'],
  ['types', 'json'],
  ['errors'],
  ['http'],
  ['openapi'],
  ['model'],
  ['oracle'],
  ['store', 'journal'],
  ['state'],
  ['seed'],
  ['scenarios'],
  ['handlers'],
  ['pipeline'],
  ['sessions'],
  ['admin'],
];

/** What the core never imports, wherever its file is: Node, a server framework, a logger, an adapter. */
const coreOnlyImportsTheCore = [
  { group: ['node:*'], message: 'The core imports nothing from Node: take it as a dependency instead.' },
  {
    group: ['express', 'body-parser', 'cors', 'pino', 'pino-*', 'msw', 'msw/*', 'undici'],
    message: 'The core imports no server framework, logger or transport: adapters do.',
  },
  {
    group: ['../node/*', '../../node/*', '../adapters/*', '../../adapters/*', '../persistence/*'],
    message: 'The core never imports an adapter.',
  },
];
const nodeModules = ['fs', 'path', 'http', 'https', 'zlib', 'crypto', 'os', 'stream', 'url', 'child_process'].map(
  (name) => ({ name, message: 'The core imports nothing from Node.' }),
);
/** The generated files at the bottom: types and data written from openapi.yaml, which import nothing of the kit. */
const generatedBelow = 'openapi-types|openapi-parsed-types|operation-kinds|admin-document';

/** The import rules of one folder of src/core: the core's own, and nothing from beside or above its layer. */
function layerRules(folder, layer) {
  const above = coreLayers
    .flat()
    .filter((other) => other !== folder && coreLayers.findIndex((each) => each.includes(other)) >= layer);
  const besides = coreLayers[layer].filter((other) => other !== folder);
  return {
    files: [`src/core/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...coreOnlyImportsTheCore,
            {
              regex: `^\\.\\./(${above.join('|')})/`,
              message: `src/core/${folder}/ is in layer ${layer} of src/core: it imports only the layers below it${besides.length > 0 ? ` (not ${besides.join(' or ')}, beside it)` : ''}, never ${above.filter((other) => !besides.includes(other)).join(', ')} above it (see coreLayers in eslint.config.js).`,
            },
            {
              regex: '^\\.\\./[^/]+\\.js$',
              message: `src/core/${folder}/ imports no file at the top of src/core (create-mock-core.ts, handle-request.ts): they import the folders.`,
            },
            {
              regex: `^\\.\\./\\.\\./(?!generated/(${generatedBelow})\\.js$)`,
              message: `src/core/${folder}/ imports nothing outside src/core but the generated types (${generatedBelow.split('|').join(', ')}).`,
            },
          ],
          paths: nodeModules,
        },
      ],
    },
  };
}

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
            ...coreOnlyImportsTheCore,
            {
              regex: `^\\.\\./(?!generated/(${generatedBelow})\\.js$)`,
              message: `src/core imports nothing outside src/core but the generated types (${generatedBelow.split('|').join(', ')}).`,
            },
          ],
          paths: nodeModules,
        },
      ],
    },
  },
  // Each folder of src/core imports only the layers below it.
  ...coreLayers.flatMap((folders, layer) => folders.map((folder) => layerRules(folder, layer))),
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

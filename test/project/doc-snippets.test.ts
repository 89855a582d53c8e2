import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { packageRoot } from '../../src/package-root.js';
import { noBrowser } from '../support/browser.js';
import {
  expectedOutputs,
  extractSnippets,
  markerProblem,
  programLanguages,
  shellProblems,
  snippetName,
  type KitFacts,
  type Snippet,
  userScriptsOf,
} from '../support/doc-snippets.js';
import {
  compileSnippets,
  kitFacts,
  runAgainstMock,
  runInBrowser,
  runWithNode,
  runWithVitest,
  snippetFolder,
  snippetsOf,
  stopMocks,
  userProject,
} from '../support/run-snippets.js';
import { temporaryFolder } from '../support/temporary-folder.js';

/**
 * Every code block of the README and docs/ that is a program or a command
 * is run or checked as written, as its marker says (test/support/
 * doc-snippets.ts; docs/README.md tells writers the kinds).
 */
const snippets = snippetsOf();
const ofKind = (kind: string, lang: 'ts' | 'sh', args?: (args: string[]) => boolean) =>
  snippets.filter(
    (snippet) =>
      snippet.kind === kind && programLanguages[snippet.lang] === lang && (args === undefined || args(snippet.args)),
  );
const typescript = snippets.filter((snippet) => programLanguages[snippet.lang] === 'ts' && snippet.kind !== 'partial');
const nodePrograms = ofKind('run', 'ts', (args) => !args.includes('browser'));
const browserPrograms = ofKind('run', 'ts', (args) => args.includes('browser'));
const vitestBlocks = [...ofKind('test', 'ts'), ...ofKind('test-setup', 'ts')];
const mockBlocks = ofKind('needs-mock', 'sh');
const shell = snippets.filter((snippet) => programLanguages[snippet.lang] === 'sh' && snippet.kind !== 'partial');

const folder = snippetFolder();
const project = userProject();
let facts: KitFacts;
beforeAll(() => {
  facts = kitFacts();
});
afterAll(() => {
  stopMocks();
  folder.remove();
});

/** `page` copied with `edit` applied, as a page of its own in a temporary folder; the blocks of that copy. */
const copies = temporaryFolder('petstore-broken-docs-');
function brokenCopy(page: string, edit: (text: string) => string): Snippet[] {
  const original = readFileSync(join(packageRoot, page), 'utf8');
  const copy = join(copies, page.replace(/\//g, '-'));
  writeFileSync(copy, edit(original));
  const broken = readFileSync(copy, 'utf8');
  if (broken === original) throw new Error(`the edit changed nothing in ${page}`);
  return extractSnippets(page, broken);
}
const blockAt = (list: Snippet[], text: string) => {
  const found = list.find((snippet) => snippet.code.includes(text));
  if (!found) throw new Error(`no block holds ${text}`);
  return found;
};

/**
 * Blocks broken on purpose, in temporary copies of their pages, that the runner must fail (the last describe
 * of this file). They go into the same tsc and the same vitest as the pages' own blocks (a start of either costs
 * seconds of CPU), each reported apart: a broken copy's block and its original are files of their own there.
 */
const broken = {
  /** "One test's own answer" without server.listen(): its tests go to the network. */
  withoutListen: blockAt(
    brokenCopy('docs/in-process.md', (text) =>
      text.replace("beforeAll(() => server.listen({ onUnhandledRequest: 'error' })); // before any test\n", ''),
    ),
    'shows the error of a 500 from the mock',
  ),
  /** The README's MSW lines without setupServer's import. */
  readme: blockAt(
    brokenCopy('README.md', (text) => text.replace("import { setupServer } from 'msw/node';\n", '')),
    'createMockHandlers',
  ),
  /** The Vite config without defineConfig. */
  vite: blockAt(
    brokenCopy('docs/in-process.md', (text) =>
      text
        .replace("import { defineConfig } from 'vite';\n", '')
        .replace('export default defineConfig({', 'export default {')
        .replace(/(server\.middlewares\.use\(petstoreMiddleware\(\)\);\n {6}\},\n {4}\},\n {2}\],\n)\}\);/, '$1};'),
    ),
    "name: 'petstore-mock'",
  ),
  /** A typed client calling what the API lacks. */
  client: blockAt(
    brokenCopy('docs/in-process.md', (text) =>
      text
        .replace(
          "client.GET('/pets', { params: { query: { status: 'sold' } } })",
          "client.GET('/pets', { params: { query: { status: 'lost' } } })",
        )
        .replace(
          "export const emptyList = http.get('/pets', ({ response }) => response(200).json([]));\n",
          "export const emptyList = http.get('/pets', ({ response }) => response(200).json([]));\nexport const nowhere = client.GET('/animals');\nexport const partial = client.POST('/pets', { body: { name: 'Rex' } });\n",
        ),
    ),
    'createClient<paths>',
  ),
};

/** What `make` gives, made on the first call: the first test that needs it runs it, whichever runs first. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
const typeChecked = once(() => compileSnippets(folder.dir, [...typescript, broken.readme, broken.vite, broken.client]));
const tested = once(() => runWithVitest(folder.dir, [...vitestBlocks, broken.withoutListen]));

describe('the code blocks of the README and docs/', () => {
  it('mark every program and command with what it is, and what is checked of it', () => {
    const problems = snippets.flatMap((snippet) => {
      const problem = markerProblem(snippet);
      return problem ? [`${snippetName(snippet)}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
    const count = (list: readonly Snippet[]) => list.length;
    const programs = snippets.filter((snippet) => programLanguages[snippet.lang]);
    process.stdout.write(
      `doc snippets: ${snippets.length} blocks, ${count(programs)} programs or commands: ` +
        `${count(typescript)} TypeScript type-checked, of which ${count(nodePrograms)} run with Node, ` +
        `${count(browserPrograms)} in Chromium, ${count(vitestBlocks)} with vitest; ` +
        `${count(mockBlocks)} shell blocks run against a mock, ${count(shell) - count(mockBlocks)} checked; ` +
        `${count(programs.filter((snippet) => snippet.kind === 'partial'))} partial\n`,
    );
    // What this file would run, it finds: a program, a test, a setup, a page and a command of each kind.
    expect(nodePrograms.filter((snippet) => snippet.page === 'README.md')).toHaveLength(1);
    expect(browserPrograms).toHaveLength(1);
    expect(vitestBlocks.length).toBeGreaterThanOrEqual(3);
    expect(mockBlocks.length).toBeGreaterThanOrEqual(8);
  });

  it('hold JSON and YAML that parse', () => {
    const problems = snippets.flatMap((snippet) => {
      try {
        if (snippet.lang === 'json') JSON.parse(snippet.code);
        if (snippet.lang === 'yaml' || snippet.lang === 'yml') parseYaml(snippet.code);
        return [];
      } catch (error) {
        return [`${snippetName(snippet)}: ${(error as Error).message}`];
      }
    });
    expect(problems).toEqual([]);
  });
});

describe('the TypeScript blocks', () => {
  it('compile, every one but the partial, against the built package under strict', () => {
    const report = typeChecked();
    expect([...report.rest, ...typescript.flatMap((snippet) => report.of(snippet))]).toEqual([]);
  }, 180_000);

  it.each(nodePrograms.map((snippet) => [snippetName(snippet), snippet] as const))(
    'run with Node as written: %s',
    async (_name, snippet) => {
      const result = await runWithNode(folder.dir, snippet);
      expect(result.ok, result.output).toBe(true);
    },
    90_000,
  );

  it('pass with vitest as written: the tests, under each environment named, and the setups with a test through them', async () => {
    const report = await tested();
    expect([...report.rest, ...vitestBlocks.flatMap((snippet) => report.of(snippet))]).toEqual([]);
  }, 180_000);

  describe.skipIf(noBrowser !== undefined)('in headless Chromium', () => {
    it.each(browserPrograms.map((snippet) => [snippetName(snippet), snippet] as const))(
      'runs the page %s as written: the API answers through its worker',
      async (_name, snippet) => {
        expect(await runInBrowser(folder.dir, snippet)).toBe(200);
      },
      120_000,
    );
  });
});

/** Blocks that call curl cannot run without it (CI installs it: .ci/run); each is named as skipped then. */
const noCurl = spawnSync('curl', ['--version']).error === undefined ? undefined : 'no curl (apt-get install -y curl)';
const runnable = mockBlocks.filter((snippet) => noCurl === undefined || !/\bcurl\b/.test(snippet.code));

describe('the shell blocks', () => {
  it('name scripts package.json has, and programs of the kit with flags and variables their --help names', () => {
    const problems = shell.flatMap((snippet) =>
      shellProblems(snippet.code, facts, userScriptsOf(snippet)).map(
        (problem) => `${snippetName(snippet)}: ${problem}`,
      ),
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it.each(runnable.map((snippet) => [snippetName(snippet), snippet] as const))(
    'run as written against a mock started with their marker’s flags, as it started: %s',
    async (_name, snippet) => {
      const result = await runAgainstMock(project.dir, snippet);
      expect(result.ok, result.output).toBe(true);
      // A command the docs show runs clean: no warning (the contract suite's about dev-key among them).
      expect(result.output).not.toMatch(/^warning:/m);
    },
    120_000,
  );
});

describe.runIf(noCurl !== undefined)('the shell blocks that call curl', () => {
  it.each(mockBlocks.filter((snippet) => !runnable.includes(snippet)).map(snippetName))(
    `are skipped: ${noCurl}: %s`,
    () => {
      expect(noCurl).toBeDefined();
    },
  );
});

describe('the runner, given a page with a block broken on purpose (in a temporary copy)', () => {
  it('fails "One test’s own answer" without server.listen(): its tests go to the network', async () => {
    const block = broken.withoutListen;
    const report = await tested();
    expect(report.rest).toEqual([]);
    const problems = report.of(block);
    expect(problems.join('\n'), problems.join('\n')).toContain(`${snippetName(block)} (node): `);
    expect(problems.length).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it('fails blocks that no longer compile, naming the page’s line: the README’s MSW lines without setupServer’s import, the Vite config without defineConfig, a typed client calling what the API lacks', () => {
    const { readme, vite, client } = broken;
    const lineOf = (block: Snippet, text: string) =>
      block.line + block.code.split('\n').findIndex((line) => line.includes(text)) + 1;
    const report = [readme, vite, client].flatMap((block) => typeChecked().of(block));
    expect(report).toContainEqual(
      expect.stringMatching(
        new RegExp(`^README\\.md:${lineOf(readme, 'setupServer(')}: error TS2304: Cannot find name 'setupServer'`),
      ),
    );
    const inProcess = report.filter((line) => line.startsWith('docs/in-process.md:')).join('\n');
    expect(inProcess).toContain(
      `:${lineOf(vite, 'configureServer(server)')}: error TS7006: Parameter 'server' implicitly`,
    );
    expect(inProcess).toContain('"lost"');
    expect(inProcess).toContain(`docs/in-process.md:${lineOf(client, "'/animals'")}:`);
    expect(inProcess).toContain('categoryId');
  }, 180_000);

  it.skipIf(noCurl !== undefined)(
    'fails a shell block against the mock whose output is not what it shows, or whose command fails',
    async () => {
      const page = brokenCopy('docs/admin-api.md', (text) =>
        text.replace('# {"scenario":"edge-cases","pets":12}', '# {"scenario":"edge-cases","pets":13}'),
      );
      const block = blockAt(page, '"name":"edge-cases"');
      expect(expectedOutputs(block.code)).toEqual(['{"scenario":"edge-cases","pets":13}']);
      const wrongOutput = await runAgainstMock(project.dir, block);
      expect(wrongOutput.ok).toBe(false);
      expect(wrongOutput.output).toContain(
        'the output lacks what the block shows: {"scenario":"edge-cases","pets":13}',
      );
      // Sent to a port nobody listens on: curl fails, and so does the block.
      const unreachable = { ...block, code: block.code.replace('http://127.0.0.1:4010', 'http://127.0.0.1:1') };
      expect((await runAgainstMock(project.dir, unreachable)).ok).toBe(false);
    },
    120_000,
  );

  it('fails a shell block that names a flag its program lacks, a script package.json lacks, or an unmarked block', () => {
    const page = brokenCopy('docs/cli.md', (text) =>
      text
        .replace('npm start -- --port 8080 --scenario large', 'npm start -- --port 8080 --scenaro large')
        .replace('npx petstore-mock --help', 'npm run serve'),
    );
    const block = blockAt(page, '--scenaro');
    expect(shellProblems(block.code, facts)).toEqual([
      expect.stringContaining('--scenaro is not a flag of mock'),
      expect.stringContaining("package.json has no script 'serve'"),
    ]);
    const unmarked = extractSnippets('docs/x.md', '# X\n\n```sh\nnpm start\n```\n');
    expect(markerProblem(unmarked[0] as Snippet)).toMatch(/^a sh block without a marker/);
  });
});

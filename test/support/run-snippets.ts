import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { packageRoot } from '../../src/package-root.js';
import { killRunningClis, startCli, waitForBanner, type Cli } from '../cli/start-cli.js';
import { builtPrograms } from './build-dist.js';
import {
  againstMock,
  expectedOutputs,
  extractSnippets,
  snippetName,
  snippetStem,
  type KitFacts,
  type Snippet,
} from './doc-snippets.js';
import { putBack } from './put-back.js';
import { runBundledPage } from './run-bundled-page.js';
import { temporaryFolder } from './temporary-folder.js';
import { typeCheck } from './type-check.js';

const execFileAsync = promisify(execFile);

/** The README and every page under docs/ of a folder laid out as the repository, as repository paths. */
export function documentationPages(root: string = packageRoot): string[] {
  const under = (folder: string): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = posix.join(folder, entry.name);
      if (entry.isDirectory()) return under(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...under('docs')].sort();
}

/** Every block of those pages. */
export function snippetsOf(root: string = packageRoot, pages = documentationPages(root)): Snippet[] {
  return pages.flatMap((page) => extractSnippets(page, readFileSync(join(root, page), 'utf8')));
}

/** The output of a run, and whether it went well. */
export interface RunResult {
  ok: boolean;
  output: string;
}

/** Runs a program; resolves with its exit status's verdict and its output, never rejects. */
async function runProgram(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<RunResult> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      timeout: options.timeout ?? 120_000,
      maxBuffer: 16 * 1024 * 1024,
      encoding: 'utf8',
    });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message };
  }
}

/** This environment without vitest's own variables, which would make a child vitest think it is a worker. */
function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') delete env[name];
  return env;
}

/**
 * A folder for TypeScript blocks, under dist/ (built by the test run's
 * global setup): there `petstore-kit` resolves to the built package itself,
 * through its own package.json's exports, as a user importing it sees it,
 * and vite, express, msw, vitest and the DOMs to the kit's node_modules.
 */
export function snippetFolder(): { dir: string; remove(): void } {
  mkdirSync(join(packageRoot, 'dist'), { recursive: true });
  const dir = mkdtempSync(join(packageRoot, 'dist', '.snippets-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What one run of several blocks (one tsc, one vitest) found, by block. */
export interface BlocksReport {
  /** The problems of one of the blocks run (`page:line: …`, the line the page's). */
  of(snippet: Snippet): string[];
  /** What the run reported of no block in particular (it did not run, a problem of its set-up). */
  rest: string[];
}

/** A report of `rest` and the problems of each block. */
function blocksReport(rest: string[], problems: ReadonlyMap<Snippet, string[]>): BlocksReport {
  return { rest, of: (snippet) => problems.get(snippet) ?? [] };
}

/**
 * A file stem for each block of one run, each its own: a block of a broken copy of a page sits at the
 * same page and line as the original's, and both go into one run (one tsc, one vitest: each start costs
 * seconds of CPU).
 */
function stemsOf(snippets: readonly Snippet[]): Map<Snippet, string> {
  const taken = new Set<string>();
  return new Map(
    snippets.map((snippet) => {
      let stem = snippetStem(snippet);
      for (let copy = 2; taken.has(stem); copy += 1) stem = `${snippetStem(snippet)}-${copy}`;
      taken.add(stem);
      return [snippet, stem];
    }),
  );
}

/**
 * The type checker's report on these blocks (as tsc writes it), each a module of its own under `strict`,
 * by block (`page:line: error TS…`, the line the page's): none for a block
 * that compiles.
 */
export function compileSnippets(dir: string, snippets: readonly Snippet[]): BlocksReport {
  const files = new Map([...stemsOf(snippets)].map(([snippet, stem]) => [`${stem}.ts`, snippet]));
  for (const [name, snippet] of files) writeFileSync(join(dir, name), snippet.code);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom', 'dom.iterable'],
        types: ['node'],
        typeRoots: [join(packageRoot, 'node_modules/@types')],
        skipLibCheck: true,
      },
      files: [...files.keys()],
    }),
  );
  // In this process (no tsc of its own to start), reading JSDoc only where a type error needs it, as tsc does.
  const { report } = typeCheck(dir, { project: 'tsconfig.json' });
  // `name.ts(12,5): error TS2304: …` as the page's own line.
  // The indented lines under an error (its details) are the same block's.
  const rest: string[] = [];
  const problems = new Map<Snippet, string[]>();
  let last: Snippet | undefined;
  for (const line of report.split('\n').filter((each) => each.trim() !== '')) {
    const match = /^([^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
    last = match ? files.get((match[1] as string).split(/[\\/]/).pop() as string) : /^\s/.test(line) ? last : undefined;
    const problem = match && last ? `${last.page}:${last.line + Number(match[2])}: ${match[4]}` : line;
    if (last) problems.set(last, [...(problems.get(last) ?? []), problem]);
    else rest.push(line);
  }
  return blocksReport(rest, problems);
}

/** Runs a `run` block with Node, as an ES module in the snippet folder. */
export async function runWithNode(dir: string, snippet: Snippet): Promise<RunResult> {
  const { code } = await transform(snippet.code, { loader: 'ts', format: 'esm', target: 'es2022' });
  const file = join(dir, `${snippetStem(snippet)}.mjs`);
  writeFileSync(file, code);
  return runProgram(process.execPath, [file], { cwd: dir, env: childEnv(), timeout: 60_000 });
}

/** The test vitest runs beside a `test-setup` block: it calls the API through that setup, and a stray request fails. */
const setupProbe = (setupModule: string) => `import './${setupModule}';
import { expect, it } from 'vitest';

it('answers the API of any origin through the setup', async () => {
  const response = await fetch('https://api.example.test/v1/pets', { headers: { Authorization: 'Bearer dev-key' } });
  expect(response.status).toBe(200);
  expect(Array.isArray(await response.json())).toBe(true);
});

it('fails a request no handler answers, rather than let it out', async () => {
  await expect(fetch('https://elsewhere.example.test/')).rejects.toThrow();
});
`;

/**
 * Runs the `test` and `test-setup` blocks with one vitest (in a child
 * process, from the snippet folder); the problems by block, none for a
 * block whose tests all passed. A `test` block runs once under each
 * environment its marker names.
 */
export async function runWithVitest(dir: string, snippets: readonly Snippet[]): Promise<BlocksReport> {
  const files = new Map<string, Snippet>();
  for (const [snippet, stem] of stemsOf(snippets)) {
    if (snippet.kind === 'test-setup') {
      writeFileSync(join(dir, `${stem}.setup.ts`), snippet.code);
      writeFileSync(join(dir, `${stem}.test.ts`), setupProbe(`${stem}.setup.ts`));
      files.set(`${stem}.test.ts`, snippet);
      continue;
    }
    const environments = snippet.args.length > 0 ? snippet.args : ['node'];
    for (const environment of environments) {
      const name = `${stem}.${environment}.test.ts`;
      writeFileSync(join(dir, name), `/** @vitest-environment ${environment} */\n${snippet.code}`);
      files.set(name, snippet);
    }
  }
  if (files.size === 0) return blocksReport([], new Map());
  const report = join(dir, `vitest-${Date.now()}.json`);
  // These files only: vitest leaves anything under a dist/ folder out by default.
  const config = join(dir, `vitest-${Date.now()}.config.mjs`);
  writeFileSync(config, `export default { test: { include: ${JSON.stringify([...files.keys()])}, exclude: [] } };\n`);
  const vitest = join(packageRoot, 'node_modules/vitest/vitest.mjs');
  const run = await runProgram(
    process.execPath,
    [
      vitest,
      'run',
      '--config',
      config,
      '--root',
      dir,
      '--reporter=json',
      `--outputFile=${report}`,
      '--testTimeout=20000',
    ],
    { cwd: dir, env: childEnv() },
  );
  let results: {
    testResults: Array<{
      name: string;
      status: string;
      message?: string;
      assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }>;
    }>;
  };
  try {
    results = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    return blocksReport([`vitest did not run the blocks: ${run.output}`], new Map());
  }
  const problems = new Map<Snippet, string[]>();
  const problem = (snippet: Snippet, text: string) => problems.set(snippet, [...(problems.get(snippet) ?? []), text]);
  const seen = new Set<string>();
  for (const file of results.testResults) {
    const base = file.name.split(/[\\/]/).pop() as string;
    const snippet = files.get(base);
    if (!snippet) continue;
    seen.add(base);
    const where = `${snippetName(snippet)} (${base.split('.').slice(1, -2).join('.') || 'setup'})`;
    if (file.assertionResults.length === 0) problem(snippet, `${where}: no test ran: ${file.message ?? file.status}`);
    for (const test of file.assertionResults) {
      if (test.status !== 'passed') {
        problem(snippet, `${where}: ${test.fullName}: ${(test.failureMessages[0] ?? test.status).split('\n')[0]}`);
      }
    }
  }
  for (const [name, snippet] of files)
    if (!seen.has(name)) problem(snippet, `${snippetName(snippet)}: vitest did not run it`);
  return blocksReport([], problems);
}

/**
 * Runs a `run browser` block in headless Chromium: bundled as a user's
 * bundler would, served with msw's `mockServiceWorker.js` (what `npx msw
 * init` copies), followed by a call to the API through it. Resolves with
 * the status that call got, or throws with what the page reported.
 */
export async function runInBrowser(dir: string, snippet: Snippet): Promise<number> {
  const entry = `${snippetStem(snippet)}.page.ts`;
  writeFileSync(
    join(dir, entry),
    `${snippet.code}
// The runner's probe: the API, through what the block set up.
const probe = await fetch('/v1/pets', { headers: { Authorization: 'Bearer dev-key' } });
document.body.dataset.status = String(probe.status);
`,
  );
  const status = await runBundledPage({
    dir,
    entry,
    title: snippetName(snippet),
    nodeModules: join(packageRoot, 'node_modules'),
    attribute: 'status',
  });
  return Number(status);
}

/**
 * A user's project with the kit installed, as npm links it: `node_modules/
 * petstore-kit` is the checkout (built), and its programs are in
 * `node_modules/.bin`, where `npx` and a script find them.
 */
export function userProject(): { dir: string } {
  const dir = temporaryFolder('petstore-snippets-');
  writeFileSync(
    join(dir, 'package.json'),
    '{ "name": "a-user", "private": true, "devDependencies": { "petstore-kit": "*" } }\n',
  );
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(packageRoot, join(dir, 'node_modules/petstore-kit'), 'dir');
  for (const program of ['petstore-kit', 'petstore-mock', 'petstore-contract']) {
    symlinkSync(`../petstore-kit/bin/${program}.js`, join(dir, 'node_modules/.bin', program));
  }
  return { dir };
}

/** The key and the addresses a shell block reads from the environment, as the docs name them. */
const deploymentVariables = (origin: string): NodeJS.ProcessEnv => ({
  KEY: 'dev-key',
  STAGING_KEY: 'dev-key',
  PETSTORE_KEY: 'dev-key',
  URL: `${origin}/v1`,
  STAGING: `${origin}/v1`,
  STAGING_URL: origin,
});

/** The mocks the shell blocks run against, by their marker's flags, each started once. */
const mocks = new Map<string, { cli: Cli; origin: string; key: string }>();

/** The mock for a marker's flags: the one started for them before, put back to its start, or a new one. */
async function mockFor(args: readonly string[]): Promise<string> {
  const flags = JSON.stringify(args);
  const running = mocks.get(flags);
  if (running && running.cli.child.exitCode === null) {
    await putBack(running.origin, running.key);
    return running.origin;
  }
  const cli = startCli(['--port', '0', '--log-level', 'silent', ...args]);
  const origin = new URL(await waitForBanner(cli)).origin;
  const token = args.indexOf('--token');
  mocks.set(flags, { cli, origin, key: token === -1 ? 'dev-key' : (args[token + 1] ?? 'dev-key') });
  return origin;
}

/** For `afterAll`: stops every mock the shell blocks ran against. */
export function stopMocks(): void {
  mocks.clear();
  killRunningClis();
}

/**
 * Runs a `needs-mock` shell block with `sh -e`, in a folder of the user's
 * project, against the built `petstore-mock` started with the marker's flags
 * on a port of its own (started once for those flags, and put back to its
 * start before each block: a start costs about 0.4 s of CPU); then checks
 * that the output holds what the block's comments show.
 */
export async function runAgainstMock(project: string, snippet: Snippet): Promise<RunResult> {
  const origin = await mockFor(snippet.args);
  const cwd = mkdtempSync(join(project, 'run-'));
  writeFileSync(join(cwd, 'block.sh'), againstMock(snippet.code, origin));
  const run = await runProgram('sh', ['-e', 'block.sh'], {
    cwd,
    env: {
      ...childEnv(deploymentVariables(origin)),
      PATH: [join(project, 'node_modules/.bin'), process.env.PATH ?? ''].join(delimiter),
      // npx finds the kit in the project; never the registry.
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
    },
  });
  const missing = expectedOutputs(snippet.code).filter((expected) => !run.output.includes(expected));
  if (run.ok && missing.length > 0) {
    return { ok: false, output: `the output lacks what the block shows: ${missing.join(' | ')}\n${run.output}` };
  }
  return run;
}

/** What the shell checker reads of the checkout: package.json's scripts, each program's `--help`, its files. */
export function kitFacts(): KitFacts {
  const helps = new Map<string, string>();
  const help = (program: string): string => {
    let text = helps.get(program);
    if (text !== undefined) return text;
    const tsx = join(packageRoot, 'node_modules/tsx/dist/cli.mjs');
    const commands: Record<string, string[]> = {
      mock: [builtPrograms.mock, '--help'],
      proxy: [builtPrograms.mock, 'proxy', '--help'],
      contract: [builtPrograms.contract, '--help'],
      dredd: [builtPrograms.dredd, '--help'],
      kit: [join(packageRoot, 'bin/petstore-kit.js'), '--help'],
      precompile: [join(packageRoot, 'bin/petstore-kit.js'), 'precompile', '--help'],
      // The bench scripts print their usage for an option they do not know.
      fuzz: [tsx, join(packageRoot, 'bench/fuzz.ts'), '--help'],
      soak: [tsx, join(packageRoot, 'bench/soak.ts'), '--help'],
    };
    const args = commands[program];
    if (!args) throw new Error(`no help for ${program}`);
    try {
      text = execFileSync(process.execPath, args, { cwd: packageRoot, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      text = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
    }
    helps.set(program, text);
    return text;
  };
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return {
    scripts: manifest.scripts,
    help,
    exists: (path) => {
      try {
        readFileSync(join(packageRoot, path));
        return true;
      } catch {
        return false;
      }
    },
  };
}

import { copyFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { noBrowser } from './browser.js';
import { nodeEnv, nodeOf, sharedProject, spawnSyncText, teamPackages } from './packed-package.js';
import type { ResultsByProject, TestOutcome } from './results-by-project.js';
import { runBundledPage } from './run-bundled-page.js';
import { typeCheck } from './type-check.js';

/** An MSW major and the Node major a team runs it on (MSW 3 needs Node 22.12 or later). */
export interface Major {
  msw: 2 | 3;
  node: number;
}

export interface FrontendApp {
  dir: string;
  /** The `node` program the app runs on. */
  node: string;
  /** What `npm i -D` printed. */
  installed: string;
  /**
   * The type errors of the app under its own tsconfig (strict, `skipLibCheck: false`: test/support/type-check.ts),
   * the major's wrong files (`frontendApp`'s `wrongFiles`) among its files, by file: one compile for the app and
   * every wrong file, made when first asked for. An error's continuation lines stay with it.
   */
  errorsByFile(): Map<string, string[]>;
  /** The app's suite in every project of its vitest config (one per environment), shuffled: run when first asked for. */
  suite(): SuiteRun;
}

/** tsc's report as its errors (each with its continuation lines), by the file each names. */
function errorsByFile(report: string): Map<string, string[]> {
  const errors = new Map<string, string[]>();
  for (const error of report.split(/\n(?=\S)/)) {
    if (error.trim() === '') continue;
    const file = /^([^(]+)\(\d+,\d+\): /.exec(error)?.[1] ?? '(no file)';
    errors.set(file, [...(errors.get(file) ?? []), error.trimEnd()]);
  }
  return errors;
}

/** A run of the app's suite: each project's tests, and what vitest printed. */
export interface SuiteRun {
  results: ResultsByProject;
  output: string;
}

/**
 * Runs the app's suite with its own vitest, on the app's Node, shuffled unless `shuffle` is false, in every
 * project of its config or in `project` alone, with `env` added to its environment.
 */
export function runSuite(
  app: FrontendApp,
  { project, env = {}, shuffle = true }: { project?: string; env?: Record<string, string>; shuffle?: boolean } = {},
): SuiteRun {
  const resultsFile = join(app.dir, `results-${project ?? 'all'}-${Object.keys(env).join('-') || 'plain'}.json`);
  const vitest = join(app.dir, 'node_modules/vitest/vitest.mjs');
  const args = [
    'run',
    ...(project ? ['--project', project] : []),
    ...(shuffle ? ['--sequence.shuffle'] : []),
    `--reporter=${join(packageRoot, 'test/support/results-by-project.ts')}`,
  ];
  const result = spawnSyncText(app.node, [vitest, ...args], app.dir, {
    ...cleanEnv(app.node),
    RESULTS_FILE: resultsFile,
    ...env,
  });
  return { results: JSON.parse(readFileSync(resultsFile, 'utf8')) as ResultsByProject, output: result.output };
}

/** The app's Node environment without vitest's own variables, which would make the child vitest think it is a worker. */
function cleanEnv(node: string): NodeJS.ProcessEnv {
  const env = nodeEnv(node);
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') delete env[name];
  return env;
}

/** The tests of a project that did not pass, with the first line of their failure. */
export const failures = (tests: readonly TestOutcome[] = []) =>
  tests.filter((test) => test.state !== 'passed').map((test) => `${test.title}: ${test.failure ?? test.state}`);

/**
 * A frontend team's app and its suite (test/frontend/app: an openapi-fetch
 * client typed by the kit's `paths`, a component that lists and creates
 * pets, one test's own 500 both through `server.use` and the mock's typed
 * fault, the documented reset, a vitest project per environment), in a
 * project with the packed tarball installed beside msw, openapi-fetch,
 * vitest, jsdom and happy-dom by a plain `npm i -D`, as a team installs
 * them, on one MSW major and its Node (`sharedProject`: msw 2's on Node 20
 * is packed-package.test.ts's user folder too). Registers the tests every
 * major passes: it installs cleanly, runs under each of vitest's
 * environments in a shuffled order, compiles under `strict` with
 * `skipLibCheck: false`, and runs as a dev app in headless Chromium with
 * MSW's service worker. Each major is a test file of its own
 * (test/project/app-suite-msw-*.test.ts), so that the two run side by side;
 * the returned function gives the installed app to that file's own tests.
 */
export function frontendApp(
  { msw, node: major }: Major,
  /**
   * Files the app's compile must refuse, by path in the app (each major's own checks: a call the API lacks,
   * the other major's API): written beside the app, and compiled with it, so that one strict compile (the
   * costliest step after the install) serves the app's check and theirs.
   */
  wrongFiles: Record<string, string> = {},
): () => FrontendApp {
  let app: FrontendApp | undefined;
  const appOf = (): FrontendApp => {
    if (!app) throw new Error(`the app on msw ${msw} was not installed`);
    return app;
  };

  beforeAll(async () => {
    const source = join(packageRoot, 'test/frontend/app');
    const node = nodeOf(major);
    // What a team installs for this app: the kit and msw (`npm i -D petstore-kit msw`), its client, its test tools.
    const { dir, output } = await sharedProject(teamPackages(msw), node);
    // The app, with the one file that differs between the majors in its place.
    cpSync(source, dir, { recursive: true, filter: (path) => !/[/\\]msw-\d$/.test(path) });
    copyFileSync(join(source, `msw-${msw}/listen.ts`), join(dir, 'test/listen.ts'));
    for (const [path, text] of Object.entries(wrongFiles)) writeFileSync(join(dir, path), text);
    // The app's own tsconfig, with the wrong files among its files (those under its folders already are).
    writeFileSync(
      join(dir, 'tsconfig.with-wrong-files.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        ...(Object.keys(wrongFiles).length > 0 ? { files: Object.keys(wrongFiles) } : {}),
      }),
    );
    let errors: Map<string, string[]> | undefined;
    let suite: SuiteRun | undefined;
    app = {
      dir,
      node,
      installed: output,
      errorsByFile: () =>
        (errors ??= errorsByFile(typeCheck(dir, { project: 'tsconfig.with-wrong-files.json' }).report)),
      suite: () => (suite ??= runSuite(appOf())),
    };
  }, 600_000);

  describe(`a frontend app’s suite on msw ${msw} with Node ${major}, from the packed tarball`, () => {
    it(`installs with a plain npm i -D: msw ${msw}, no peer conflict, no EBADENGINE`, () => {
      const installedApp = appOf();
      const installed = JSON.parse(readFileSync(join(installedApp.dir, 'node_modules/msw/package.json'), 'utf8')) as {
        version: string;
      };
      expect(installed.version.split('.')[0]).toBe(String(msw));
      expect(spawnSyncText(installedApp.node, ['--version'], installedApp.dir).output).toMatch(
        new RegExp(`^v${major}\\.`),
      );
      expect(installedApp.installed).not.toMatch(/ERESOLVE|EBADENGINE/);
      const manifest = JSON.parse(readFileSync(join(installedApp.dir, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>;
      };
      expect(Object.keys(manifest.devDependencies)).toEqual(expect.arrayContaining(['petstore-kit', 'msw']));
    });

    it.each(['node', 'jsdom', 'happy-dom'])(
      'passes whole under vitest’s %s environment, in a shuffled order',
      (environment) => {
        // One vitest run for the three environments (the app's config has a project for each).
        const { results, output } = appOf().suite();
        expect(results.unhandled, output).toEqual([]);
        const tests = results.projects[environment];
        expect(failures(tests), output).toEqual([]);
        expect(tests?.filter((test) => test.state === 'passed')).toHaveLength(11);
      },
      120_000,
    );

    it('compiles, app, tests and dev page, under strict with skipLibCheck false', () => {
      const errors = appOf().errorsByFile();
      // Only the files written wrong on purpose have errors: they are checked by the major's own tests.
      expect([...errors.keys()].filter((file) => !(file in wrongFiles))).toEqual([]);
      for (const file of Object.keys(wrongFiles)) expect(errors.get(file), file).toBeDefined();
    }, 120_000);

    describe.skipIf(noBrowser !== undefined)('as a dev app in headless Chromium, with MSW’s service worker', () => {
      it('lists, adds, and gets a broken connection from an injected fault', async () => {
        const seen = await runDevApp(appOf().dir);
        expect(seen).toEqual({
          listed: ['1 Bella (available)', '2 Max (pending)', '3 Luna (sold)'],
          added: { id: 4, name: 'Zoë 🐱', categoryId: 2, status: 'sold' },
          afterAdd: 4,
          fault: 'rejected: TypeError',
        });
      }, 120_000);
    });
  });

  return appOf;
}

/**
 * The app's dev page (browser/dev-app.ts), bundled as its bundler would from the app's own node_modules (its
 * msw and the installed kit), in headless Chromium with that msw's worker: what the page saw.
 */
async function runDevApp(dir: string): Promise<unknown> {
  const seen = await runBundledPage({
    dir,
    entry: 'browser/dev-app.ts',
    title: 'pets',
    nodeModules: join(dir, 'node_modules'),
    attribute: 'seen',
  });
  return JSON.parse(seen || '{}');
}

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { packageRoot } from '../../src/package-root.js';
import type { ProxyReportJson } from '../../src/proxy/proxy-report.js';
import { type ReferenceServer, startReferenceServer } from '../contract/support/reference-server.js';
import { checkMarkdownLinks, type MarkdownFiles } from '../support/check-markdown-links.js';
import { startServer, type RunningServer } from '../support/start-server.js';
import { answers } from '../support/answers.js';
import {
  installedClosure,
  isRunning,
  npmEnv,
  npx,
  packageBytes,
  packTarball,
  removeNpxInstallOf,
  resolvePackage,
  runIn,
  sharedProject,
  spawnSyncText,
  teamPackages,
  tscIn,
} from '../support/packed-package.js';
import { typeCheck } from '../support/type-check.js';

/** The folders this file makes of its own, under one temporary folder removed at the end. */
let root: string;
/** The packed tarball, packed once for every test of this file. */
let tarball: string;
/**
 * A user's project: the tarball installed with `npm i -D` beside msw 2, express and a frontend team's test
 * tools; the same project as msw 2's app on Node 20 (test/support/frontend-app.ts), installed once for both.
 */
let folder: string;
/** What `npm i -D` printed in it. */
let installOutput: string;

/** Runs a command in a folder (the user's by default); output as text. */
const run = (command: string, args: string[], cwd = folder) => runIn(cwd, command, args);

/** Test runners and bundlers: none belongs in an install for MSW handlers. */
const runnersAndBundlers = ['vitest', 'vite', 'rolldown', 'esbuild', 'jest', 'mocha', 'webpack'];

/** The names of the installed packages in `dirs` that are test runners or bundlers (or their scoped parts). */
const runnersAndBundlersIn = (dirs: Iterable<string>): string[] =>
  [...dirs]
    .map((dir) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name)
    .filter((name) => runnersAndBundlers.includes(name) || /^@(vitest|rolldown)\//.test(name))
    .sort();

/** The bytes of the installed packages in `dirs`. */
const bytesOf = (dirs: Iterable<string>) => [...dirs].reduce((sum, dir) => sum + packageBytes(dir), 0);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'petstore-packed-'));
  // dist/ is built by the test run's global setup, and packed once per run: the same tarball as the project's.
  tarball = packTarball(root);
  ({ dir: folder, output: installOutput } = await sharedProject(teamPackages(2), process.execPath));
  cpSync(join(packageRoot, 'test/project/packed'), folder, { recursive: true });
}, 300_000);
afterAll(() => rmSync(root, { recursive: true, force: true }), 120_000);

describe('the package as users get it (npm pack, installed into an empty folder)', () => {
  it('answers through every export: createMock().fetch, /express, /msw, and the node:http server', () => {
    expect(JSON.parse(run(process.execPath, ['use-every-entry.mjs']))).toEqual({
      fetch: { status: 200, pets: 3 },
      express: { status: 200, pets: 2 },
      msw: { status: 200, body: '{"id":3,"name":"Luna","categoryId":3,"status":"sold"}' },
      node: { status: 200, deprecation: '@1795305600' },
    });
  });

  it('ships types a Node user compiles against: exact ids in the store API, plain numbers for app code', () => {
    const { report } = typeCheck(folder, {
      files: ['types.ts'],
      options: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        types: ['node'],
        typeRoots: [join(packageRoot, 'node_modules/@types')],
      },
    });
    expect(report).toBe('');
  }, 120_000);

  it('ships types a browser app compiles against /msw and /browser: strict, skipLibCheck false, no Node types', () => {
    const { report, files } = typeCheck(folder, { project: 'tsconfig.browser.json' });
    expect(report).toBe('');
    // Nothing of Node's types came in through the kit's declarations.
    expect(files.filter((file) => file.includes('@types/node'))).toEqual([]);
    expect(files.some((file) => file.includes('petstore-kit/dist/msw.d.ts'))).toBe(true);
  }, 120_000);

  it('type-checks the kit’s declarations and those of the packages it brings, leaving the project’s own to their authors', () => {
    // A project whose three packages each declare a type that does not exist: the kit, a dependency of the
    // kit, and a package the project chose itself. tsc with skipLibCheck false reports all three.
    const dir = join(root, 'declarations');
    const declare = (name: string, manifest: object) => {
      mkdirSync(join(dir, 'node_modules', name), { recursive: true });
      writeFileSync(
        join(dir, 'node_modules', name, 'package.json'),
        JSON.stringify({ name, types: 'index.d.ts', ...manifest }),
      );
      writeFileSync(join(dir, 'node_modules', name, 'index.d.ts'), 'export declare const value: NoSuchType;\n');
    };
    declare('petstore-kit', { dependencies: { 'brought-by-the-kit': '1' } });
    declare('brought-by-the-kit', {});
    declare('chosen-by-the-project', {});
    writeFileSync(
      join(dir, 'main.ts'),
      ['petstore-kit', 'brought-by-the-kit', 'chosen-by-the-project']
        .map((name, index) => `import { value as v${index} } from '${name}';\nexport const u${index} = v${index};\n`)
        .join(''),
    );
    const options = { strict: true, module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022'], types: [] };
    const inFiles = (report: string) =>
      [...report.matchAll(/node_modules\/([\w-]+)\/index\.d\.ts\(/g)].map(([, name]) => name);
    expect(inFiles(typeCheck(dir, { files: ['main.ts'], options }).report)).toEqual([
      'brought-by-the-kit',
      'petstore-kit',
    ]);
    const tsc = tscIn(dir, ['--noEmit', '--strict', '--module', 'nodenext', '--lib', 'es2022', 'main.ts']);
    expect(inFiles(tsc)).toEqual(['brought-by-the-kit', 'chosen-by-the-project', 'petstore-kit']);
  }, 120_000);

  it('serves the web pages from the installed package: the reference and the dashboard', async () => {
    const child = spawn(join(folder, 'node_modules/.bin/petstore-mock'), ['--port', '0', '--log-level', 'silent'], {
      cwd: folder,
    });
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const deadline = Date.now() + 15_000;
      while (!/Docs\s+(http:\S+)/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const origin = (/Docs\s+(http:\/\/[^/\s]+)/.exec(out) ?? [])[1];
      expect(origin).toBeDefined();
      for (const path of ['/', '/docs/swagger-ui-bundle.js', '/__admin/ui', '/__admin/ui/dashboard.js']) {
        expect((await fetch(`${origin}${path}`)).status, path).toBe(200);
      }
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('runs every program: petstore-mock, petstore-contract, and petstore-kit with each command', () => {
    const bin = (name: string) => join(folder, 'node_modules/.bin', name);
    expect(run(bin('petstore-mock'), ['--version']).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(run(bin('petstore-contract'), ['--help'])).toContain('--base-url URL');
    expect(run(bin('petstore-kit'), ['--help'])).toMatch(/mock .*\n.*proxy .*\n.*contract /);
    expect(run(bin('petstore-kit'), ['mock', '--help'])).toContain('--state-file');
    expect(run(bin('petstore-kit'), ['proxy', '--help'])).toContain('--upstream URL');
    expect(run(bin('petstore-kit'), ['contract', '--help'])).toContain('--base-url URL');
    expect(spawnSyncText(bin('petstore-kit'), ['nope'], folder)).toMatchObject({
      status: 2,
      output: expect.stringContaining("petstore-kit: no command 'nope' (commands: mock, proxy, contract, precompile)"),
    });
  });

  it('serves a document with an operation the kit has no handler for without Prism, naming what to install', () => {
    expect(existsSync(join(folder, 'node_modules/@stoplight/prism-http'))).toBe(false);
    expect(JSON.parse(run(process.execPath, ['no-prism.mjs']))).toEqual({
      photos: {
        status: 501,
        body: {
          code: 'not_implemented',
          status: 501,
          message:
            'listPhotos has no handler of the kit: answering it needs @stoplight/prism-http, an optional peer dependency that is not installed (npm install --save-dev @stoplight/prism-http@5)',
        },
      },
      pet: 200,
    });
  });
});

/** What no import of the kit, nor its first mock's answers, should load: each is loaded when something needs it. */
const loadedOnDemand = [
  /node_modules\/ajv\/dist\/(ajv|core|compile\/index)\.js$/,
  /node_modules\/ajv-formats\/dist\/index\.js$/,
  /node_modules\/@faker-js\//,
  /node_modules\/yaml\//,
  /node_modules\/pino\//,
];

/** Code that evaluates a string: what a page under `script-src 'self'` refuses. */
const evaluatesText = /\bnew\s+Function\b|(?<![\w$.])(?:eval|Function)\s*\(/;

/** A bundle file and every chunk it imports, statically or on demand, as paths inside `dir`. */
function withChunks(dir: string, file: string, found = new Set<string>()): Set<string> {
  if (found.has(file)) return found;
  found.add(file);
  const text = readFileSync(join(dir, file), 'utf8');
  for (const [, chunk] of text.matchAll(/(?:from|import)\s*\(?\s*"\.\/([\w.-]+\.js)"/g)) {
    withChunks(dir, chunk as string, found);
  }
  return found;
}

describe('what the installed package loads, and what its browser code evaluates', () => {
  /** What a program loads (the recorder's last line), and what it printed before. */
  const recordLoads = (args: string[]) => {
    const lines = run(process.execPath, ['--import', './record-loads.mjs', ...args])
      .trim()
      .split('\n');
    return { printed: lines.slice(0, -1), loaded: JSON.parse(lines.at(-1) as string) as string[] };
  };

  it.each(['petstore-kit', 'petstore-kit/msw', 'petstore-kit/express', 'petstore-kit/browser'])(
    'loads no Ajv compiler, Faker, yaml or pino for %s and its first mock’s answers',
    (entry) => {
      const { printed, loaded } = recordLoads(['first-answers.mjs', entry]);
      expect(printed).toEqual(['[200,201,400,200,204]']);
      // The recording works: the kit itself is in it (and it sees a dependency loaded: the test below). The
      // precompiled validators' helpers are bundled into the kit's files, so no file of Ajv is loaded at all.
      expect(loaded.some((path) => path.includes('node_modules/petstore-kit/dist/'))).toBe(true);
      expect(loaded.filter((path) => path.includes('node_modules/ajv/'))).toEqual([]);
      expect(loaded.filter((path) => loadedOnDemand.some((pattern) => pattern.test(path)))).toEqual([]);
    },
  );

  it('loads Ajv when a document of the user’s own is compiled (the check above can see it)', () => {
    writeFileSync(
      join(folder, 'own-mock.mjs'),
      "import { createMock } from 'petstore-kit';\ncreateMock({ document: 'compiled-at-run-time.yaml' });\n",
    );
    cpSync(
      join(packageRoot, 'test/evolution/documents/without-get-pet.yaml'),
      join(folder, 'compiled-at-run-time.yaml'),
    );
    const { loaded } = recordLoads(['own-mock.mjs']);
    expect(loaded.some((path) => /node_modules\/ajv\/dist\/ajv\.js$/.test(path))).toBe(true);
  });

  it('ships browser code that evaluates no string: the ready bundle, and what /msw and /browser import', () => {
    const dist = join(folder, 'node_modules/petstore-kit/dist');
    const files = [
      ...readdirSync(join(dist, 'browser'))
        .filter((name) => name.endsWith('.js'))
        .map((name) => join(dist, 'browser', name)),
      ...[...withChunks(dist, 'msw.js'), ...withChunks(dist, 'browser.js')].map((name) => join(dist, name)),
    ];
    expect(files.length).toBeGreaterThan(4);
    expect(files.filter((file) => evaluatesText.test(readFileSync(file, 'utf8')))).toEqual([]);
    // The check finds what it looks for: Ajv's compiler (the kit's) does evaluate its code.
    const ajv = resolvePackage('ajv', join(folder, 'node_modules/petstore-kit')) as string;
    expect(evaluatesText.test(readFileSync(join(ajv, 'dist/compile/index.js'), 'utf8'))).toBe(true);
  });

  it('precompiles a document of the user’s own with npx petstore-kit precompile, for the browser entry', () => {
    cpSync(
      join(packageRoot, 'test/evolution/documents/with-replace-and-delete.yaml'),
      join(folder, 'own-document.yaml'),
    );
    run(npx, ['petstore-kit', 'precompile', 'own-document.yaml', '--out', 'validators.js']);
    const validators = readFileSync(join(folder, 'validators.js'), 'utf8');
    expect(validators).not.toMatch(/^import /m);
    expect(evaluatesText.test(validators)).toBe(false);
    expect(JSON.parse(run(process.execPath, ['own-document.mjs']))).toEqual({
      created: 201,
      refused: 400,
      changed: expect.stringMatching(/precompiled from own-document\.yaml as it was then.*precompile them again/),
    });
  }, 60_000);
});

describe('the documentation in the package', () => {
  const installed = () => join(folder, 'node_modules/petstore-kit');

  it('ships docs/ with its images, the LICENSE (MIT) and the changelog', () => {
    for (const file of ['docs/README.md', 'docs/in-process.md', 'docs/images/dashboard.png', 'CHANGELOG.md']) {
      expect(existsSync(join(installed(), file)), file).toBe(true);
    }
    const license = readFileSync(join(installed(), 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} petstore-kit contributors\n/);
    expect(JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')).license).toBe('MIT');
  });

  it('links only to files and headings inside the installed package, from the README and every page', () => {
    const files: MarkdownFiles = {
      exists: (path) => existsSync(join(installed(), path)),
      read: (path) => (existsSync(join(installed(), path)) ? readFileSync(join(installed(), path), 'utf8') : undefined),
    };
    const pages = [
      'README.md',
      ...readdirSync(join(installed(), 'docs'), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.md'))
        .map((name) => posix.join('docs', name)),
    ];
    expect(pages.length).toBeGreaterThan(10);
    const problems = pages.flatMap((page) =>
      checkMarkdownLinks(page, files.read(page) ?? '', files).map(
        ({ line, target, problem }) => `${page}:${line}: ${target} ${problem}`,
      ),
    );
    expect(problems).toEqual([]);
  });
});

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Waits (bounded) for a condition, checking every 50 ms. */
async function eventually(condition: () => boolean | Promise<boolean>, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe('stopping the programs as users start them: npx, sh, CI', () => {
  let upstream: RunningServer;
  /** A deployment whose lists break the document (a categoryId written as a string). */
  let broken: ReferenceServer;
  const started: ChildProcess[] = [];
  beforeAll(async () => {
    upstream = await startServer(createNodeListener(createNodeMock({ scenario: 'one-of-each-status' })));
    broken = await startReferenceServer({ token: 'dev-key', breakage: 'invalid-pet-in-list' });
  });
  afterAll(async () => {
    for (const child of started) if (child.pid !== undefined && child.exitCode === null) child.kill('SIGKILL');
    await upstream?.close();
    await broken?.close();
  });

  /** The CI recipe of docs/proxy.md, exactly as the page shows it. */
  const recipe = (): string => {
    const page = readFileSync(join(packageRoot, 'docs/proxy.md'), 'utf8');
    const section = page.slice(page.indexOf('## In CI, around an end-to-end run'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
    if (!block) throw new Error('docs/proxy.md has no sh block in its CI section');
    return block;
  };

  /** Runs the recipe with `sh` in a fresh copy of the user's files, its upstream a correct or a broken deployment. */
  async function runRecipe(against: 'broken' | 'correct') {
    const dir = join(folder, `ci-${against}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'recipe.sh'), recipe());
    // A subfolder of the user's project: npx finds the kit installed there, and `npm run e2e` is the project's.
    const proxyPort = await freePort();
    const child = execFileAsync('sh', ['recipe.sh'], {
      cwd: dir,
      env: {
        ...npmEnv(),
        STAGING_URL: against === 'broken' ? broken.baseUrl.replace(/\/v1$/, '') : upstream.origin,
        PROXY_PORT: String(proxyPort),
        // The end-to-end run also sends a request that breaks the document: the client's, reported, never failing.
        E2E_BROKEN: '1',
      },
    });
    const result = await child;
    return { dir, proxyPort, ...result };
  }

  it('runs the CI recipe of docs/proxy.md as written: reports, JUnit, and the proxy’s exit status', async () => {
    const failing = await runRecipe('broken');
    expect(failing.code, failing.output).toBe(1);
    expect(failing.output).toContain('Coverage of the document by the traffic:');
    const report = JSON.parse(readFileSync(join(failing.dir, 'proxy-report.json'), 'utf8')) as ProxyReportJson;
    expect(report.exchanges).toBe(3);
    expect(report.deployment.fail).toBeGreaterThan(0);
    expect(report.client.findings).toMatchObject([{ rule: 'request-parameters', request: 'GET /v1/pets?limit=0' }]);
    expect(readFileSync(join(failing.dir, 'proxy-junit.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="[1-9]/);
    expect(existsSync(join(failing.dir, 'proxy.pid'))).toBe(false);
    expect(await answers(`http://127.0.0.1:${failing.proxyPort}`)).toBe(false);

    const passing = await runRecipe('correct');
    expect(passing.code, passing.output).toBe(0);
    expect(passing.output).toContain('Nothing fails (--fail-on deployment).');
    const passed = JSON.parse(readFileSync(join(passing.dir, 'proxy-report.json'), 'utf8')) as ProxyReportJson;
    expect(passed).toMatchObject({ exchanges: 3, failed: false, client: { fail: 1 } });
  }, 120_000);

  it('stops the proxy, reports written, when a script sends SIGTERM to npx rather than to the proxy', async () => {
    const dir = join(folder, 'ci-npx');
    mkdirSync(dir);
    const port = await freePort();
    const script = `npx petstore-kit proxy --upstream "${upstream.baseUrl}" --port ${port} --report report.json --junit junit.xml > proxy.out 2>&1 &
NPX=$!
echo "$NPX" > npx.pid
wait "$NPX"`;
    const shell = spawn('sh', ['-c', script], { cwd: dir, env: npmEnv(), stdio: 'ignore' });
    started.push(shell);
    const origin = `http://127.0.0.1:${port}`;
    expect(await eventually(() => answers(origin), 60_000)).toBe(true);
    process.kill(Number(readFileSync(join(dir, 'npx.pid'), 'utf8')), 'SIGTERM');
    // Bounded as its start is: beside a busy machine's other work (load 10 on 2 cores), 15 s went by once first.
    expect(await eventually(async () => !(await answers(origin)), 60_000)).toBe(true);
    expect(await eventually(() => existsSync(join(dir, 'junit.xml')))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ exchanges: 0 });
  }, 90_000);

  it('stops npx petstore-kit mock on Ctrl-C, which a terminal sends to every process of the job', async () => {
    const port = await freePort();
    const pidFile = join(root, 'ctrl-c.pid');
    const args = ['petstore-kit', 'mock', '--port', String(port), '--log-level', 'silent', '--pid-file', pidFile];
    // Its own process group, as a terminal gives each job: npx, npm's shell and the mock.
    const child = spawn(npx, args, { cwd: folder, env: npmEnv(), stdio: 'ignore', detached: true });
    started.push(child);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    expect(await eventually(() => existsSync(pidFile), 60_000)).toBe(true);
    const mock = Number(readFileSync(pidFile, 'utf8'));
    process.kill(-(child.pid as number), 'SIGINT');
    await exited;
    // The mock ran its own shutdown (which removes the pid file), and nothing is left.
    expect(await eventually(() => !existsSync(pidFile))).toBe(true);
    expect(await eventually(() => !isRunning(mock))).toBe(true);
    expect(await answers(`http://127.0.0.1:${port}`)).toBe(false);
  }, 90_000);
});

/** `execFile` that resolves with the exit code and the output, whatever the code. */
function execFileAsync(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return promisify(execFile)(command, args, { ...options, encoding: 'utf8' }).then(
    ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
}

describe('npx of each program with nothing else installed', () => {
  const programs = [
    ['petstore-kit', ['--help'], 'Usage: petstore-kit <command>'],
    ['petstore-mock', ['--version'], '.'],
    ['petstore-contract', ['--help'], '--base-url URL'],
  ] as const;
  /** What each program printed, and whether the empty folder stayed empty. */
  const printed = new Map<string, string>();
  let left: string[] = [];

  // One `npx --package <tarball>` runs all three (npx installs a tarball afresh on every call, ten seconds
  // each): its command line names each bin as a user types it, and each program's output is told apart.
  beforeAll(() => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const script = programs.map(([bin, args]) => `echo "<<${bin}>>"; ${bin} ${args.join(' ')}`).join(' && ');
    const output = run(npx, ['--yes', '--package', tarball, '--call', script], empty);
    for (const [bin] of programs) printed.set(bin, output.split(`<<${bin}>>`)[1]?.split('<<')[0] ?? '');
    left = readdirSync(empty);
  }, 240_000);
  // npx keeps what it installed (30 MB) in npm's cache, under a name made from the tarball's path, which is this run's.
  afterAll(() => removeNpxInstallOf(tarball));

  it.each(programs)(
    'runs %s from the tarball in an empty folder, and leaves the folder empty',
    (bin, _args, expected) => {
      expect(printed.get(bin)).toContain(expected);
      expect(left).toEqual([]);
    },
  );
});

describe('the weight of `npm install <tarball> msw`, against msw alone', () => {
  // Read from the user's project, where npm installed the kit and msw beside the rest: the packages each brings,
  // as Node finds them from it (test/support/packed-package.ts), not a folder of each.
  let kitAndMsw: Set<string>;
  let mswAlone: Set<string>;
  beforeAll(() => {
    kitAndMsw = installedClosure(folder, ['petstore-kit', 'msw']);
    mswAlone = installedClosure(folder, ['msw']);
  });

  it('prints no EBADENGINE on the Node versions the README names (the optional peer Prism is not installed)', () => {
    expect(installOutput).not.toContain('EBADENGINE');
    expect(existsSync(join(folder, 'node_modules/@stoplight'))).toBe(false);
  });

  // The contract suite runs on its own runner: a frontend team's install holds no test runner.
  it('adds at most 25 MB beyond msw’s own install', () => {
    const added = bytesOf(kitAndMsw) - bytesOf(mswAlone);
    process.stdout.write(`npm install <tarball> msw adds ${(added / 1e6).toFixed(1)} MB beyond msw alone\n`);
    expect(added).toBeLessThanOrEqual(25e6);
  });

  it('brings no test runner or bundler', () => {
    expect(runnersAndBundlersIn(kitAndMsw)).toEqual([]);
    // The check sees one where there is one: the project's own test runner, installed beside the kit.
    expect(runnersAndBundlersIn(installedClosure(folder, ['vitest']))).toContain('vitest');
  });

  it('measures what it says: the kit’s own folder is in the first install and not in the second', () => {
    const kit = join(folder, 'node_modules/petstore-kit');
    expect(kitAndMsw.has(kit)).toBe(true);
    expect(mswAlone.has(kit)).toBe(false);
    // msw's own dependencies are in both, and the kit's bring bytes of their own.
    expect(mswAlone.size).toBeGreaterThan(10);
    expect([...mswAlone].every((dir) => kitAndMsw.has(dir))).toBe(true);
    expect(bytesOf(kitAndMsw)).toBeGreaterThan(bytesOf(mswAlone));
  });
});

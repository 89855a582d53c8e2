import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';

// The Redis client is an optional dependency that only the redis:// path loads: a frontend team's tests, which
// import petstore-kit and answer requests from memory, load neither it nor the kit's Redis store (a chunk of its
// own in the build). A hook on module resolution, in a fresh Node process, names every module loaded.

const entry = pathToFileURL(join(packageRoot, 'dist', 'index.js')).href;

const hook = encodeURIComponent(
  'export async function resolve(specifier, context, next) {' +
    ' const resolved = await next(specifier, context);' +
    " process.stderr.write('LOADED ' + resolved.url + '\\n');" +
    ' return resolved; }',
);

/** Runs `body` in a fresh Node process after the hook and `createMock` are in place: what it wrote, and loaded. */
function run(body: string): { stdout: string; stderr: string; loaded: string[] } {
  const script = [
    "import { register } from 'node:module';",
    `register(${JSON.stringify(`data:text/javascript,${hook}`)});`,
    `const { createMock } = await import(${JSON.stringify(entry)});`,
    "const auth = { authorization: 'Bearer dev-key' };",
    body,
  ].join('\n');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: packageRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const loaded = child.stderr.split('\n').flatMap((line) => (line.startsWith('LOADED ') ? [line.slice(7)] : []));
  return { stdout: child.stdout, stderr: child.stderr, loaded };
}

/** What the memory mock loaded (the first test's): the Redis mock loads more of the kit, its store's chunk. */
let memoryLoads = new Set<string>();

it('loads no Redis client and no Redis store for a memory mock: import, create, answer', () => {
  const { stdout, stderr, loaded } = run(
    [
      'const mock = createMock();',
      "const answer = await mock.fetch(new Request('http://mock.test/v1/pets?limit=1', { headers: auth }));",
      'console.log(answer.status);',
    ].join('\n'),
  );
  expect(stdout.trim(), stderr).toBe('200');
  expect(loaded.filter((url) => url.includes('/@redis/'))).toEqual([]);
  memoryLoads = new Set(loaded);
});

it('loads the Redis client, and the kit’s store over it, for a redis:// store (the hook sees them)', () => {
  const { stdout, stderr, loaded } = run(
    [
      // A port no server listens on: the mock opens, says the store is down, and closes.
      "const mock = createMock({ store: 'redis://127.0.0.1:1', storeTimeout: 200 });",
      'await mock.ready;',
      "const answer = await mock.fetch(new Request('http://mock.test/v1/pets?limit=1', { headers: auth }));",
      'console.log(answer.status);',
      'await mock.close();',
    ].join('\n'),
  );
  expect(stdout.trim(), stderr).toBe('503');
  expect(loaded.some((url) => url.includes('/node_modules/@redis/client/'))).toBe(true);
  // …and its store, a chunk of the kit the memory mock never loaded.
  const kitDist = pathToFileURL(join(packageRoot, 'dist')).href;
  expect(loaded.filter((url) => url.startsWith(kitDist) && !memoryLoads.has(url)).length).toBeGreaterThan(0);
});

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';

/**
 * The memory 100 idle sessions cost, measured in a child process with
 * `--expose-gc` so that the heap is measured after a full collection: the
 * mock alone, then after each session has been made and listed once.
 */
export function measureIdleSessions(count = 100): { sessions: number; heapMiB: number; rssMiB: number } {
  const script = `
    const { createMock } = await import(${JSON.stringify(join(packageRoot, 'dist', 'index.js'))});
    const mock = createMock();
    const measure = () => { globalThis.gc(); globalThis.gc(); const m = process.memoryUsage(); return { heap: m.heapUsed, rss: m.rss }; };
    const request = { method: 'GET', path: '/v1/pets', query: 'limit=20', headers: { authorization: 'Bearer dev-key' } };
    await mock.handle(request);
    const before = measure();
    for (let index = 0; index < ${count}; index++) {
      await mock.handle({ ...request, headers: { ...request.headers, 'petstore-session': 'idle-' + index } });
    }
    const after = measure();
    process.stdout.write(JSON.stringify({ heap: after.heap - before.heap, rss: after.rss - before.rss }));
  `;
  const output = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  const { heap, rss } = JSON.parse(output) as { heap: number; rss: number };
  return { sessions: count, heapMiB: heap / 1024 / 1024, rssMiB: rss / 1024 / 1024 };
}

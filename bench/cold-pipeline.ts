// The proxy's pipeline in-process, with the caches flushed before every request, as they are under load: between
// two requests the kernel's socket work and Node's own evict what the pipeline used. A pipeline that costs 5 µs in a
// warm loop costs three to four times that so, which is what `npm run bench` sees of it; this measures that cost
// without the network's noise, for one build or several side by side (alternating rounds, one process).
//
// Usage, after `npm run build`: tsx bench/cold-pipeline.ts [BUILD_ROOT ...]   (default: this checkout)
// Prints, per build, the median µs per request and the quartiles over every request of every round.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const roots = process.argv.slice(2).map((root) => resolve(root));
if (roots.length === 0) roots.push(fileURLToPath(new URL('..', import.meta.url)));
const rounds = 8;
const perRound = 2000;

const pets = Array.from({ length: 20 }, (_, index) => ({
  id: index + 1,
  name: `Pet ${index + 1}`,
  categoryId: (index % 5) + 1,
  status: ['available', 'pending', 'sold'][index % 3],
}));
const answerText = JSON.stringify(pets);

interface Handles {
  handle(request: unknown): Promise<unknown>;
}

async function proxyCore(root: string): Promise<Handles> {
  const { createMockCore } = await import(`${root}/dist/core/create-mock-core.js`);
  const { defaultDocument } = await import(`${root}/dist/generated/default-document.js`);
  const { defaultFixtures } = await import(`${root}/dist/generated/default-fixtures.js`);
  const core = createMockCore({
    document: defaultDocument,
    fixtures: defaultFixtures,
    scenario: 'empty',
    proxy: {
      // The upstream's answer as the Node forwarder hands it in: new bytes and headers each time.
      forward: async () => {
        const body = Buffer.from(answerText);
        return {
          status: 200,
          headers: {
            'content-type': 'application/json',
            'content-length': String(body.length),
            'x-request-id': crypto.randomUUID(),
          },
          body,
          decoded: body,
        };
      },
      enforce: false,
      settleMs: 5000,
      onExchange() {},
      report: () => ({}),
    },
  });
  await core.ready;
  return core;
}

// New strings for every request, as Node's parser makes them (a literal would come with its hash computed).
const fresh = (text: string) => Buffer.from(text).toString('latin1');
const request = () => ({
  method: 'GET',
  path: fresh('/v1/pets'),
  query: fresh('limit=20'),
  headers: { host: fresh('127.0.0.1:4011'), authorization: fresh('Bearer dev-key'), accept: '*/*' },
});

// What runs between two requests: 8 MiB of data touched, and 3,000 small functions called (code evicted too).
const data = new Uint8Array(8 * 1024 * 1024);
const functions = Array.from(
  { length: 3000 },
  (_, index) =>
    new Function('x', `let s = x; for (let i = 0; i < 3; i++) s = (s * ${index + 3} + ${index}) | 0; return s;`) as (
      x: number,
    ) => number,
);
let sink = 0;
function flushCaches(): void {
  for (let index = 0; index < data.length; index += 64) data[index] = (data[index] as number) + 1;
  let sum = 0;
  for (const call of functions) sum += call(sum);
  sink += sum + (data[0] as number);
}

const cores = await Promise.all(roots.map(proxyCore));
for (const core of cores) for (let index = 0; index < perRound; index++) await core.handle(request());
const timings: number[][] = cores.map(() => []);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? [...cores.keys()] : [...cores.keys()].reverse();
  for (const which of order) {
    const core = cores[which] as Handles;
    for (let index = 0; index < perRound; index++) {
      flushCaches();
      const sent = request();
      const started = performance.now();
      await core.handle(sent);
      timings[which]?.push((performance.now() - started) * 1000);
    }
  }
}
roots.forEach((root, which) => {
  const sorted = [...(timings[which] ?? [])].sort((a, b) => a - b);
  const at = (share: number) => (sorted[Math.floor(sorted.length * share)] ?? Number.NaN).toFixed(2);
  console.log(`${root}: ${at(0.5)} µs per request, caches cold (quartiles ${at(0.25)} / ${at(0.75)})`);
});
if (sink === Number.MIN_VALUE) console.log(sink);

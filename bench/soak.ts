/**
 * A soak test of the mock: mixed traffic for a bounded time and a bounded
 * number of requests, on 127.0.0.1 only, then a report.
 *
 *   npm run soak -- --seconds 60 [--max-requests 2000000] [--concurrency 8] [--max-rss-growth 20] [--warm-up 10] [--proxy | --journal-flood | --session-proxy]
 *
 * With --proxy, the traffic goes through the validating proxy to an upstream
 * that misbehaves on purpose, as each request asks (`X-Hostile`): 101 to a
 * plain request, endless 1xx, a trickle, headers then a stall, silence, a
 * gzip bomb, truncated gzip, resets before and in the middle of a body, and
 * valid answers. Every answer must come within the proxy's deadline (500 ms)
 * with the status the behaviour calls for, an Error body when the proxy
 * answers itself, and RSS must stay bounded.
 *
 * With --journal-flood, one keyed client floods 100 sessions with requests
 * that each hold about 40 KB in a journal (a 12 KB URL, a 16 KiB body that
 * gets its 400), and reads journals and health as it goes: every read must
 * stay within the read cap (2 MiB), health must show the journals within
 * their bound (64 MiB), and RSS must stay bounded (100 sessions once took the
 * mock from 276 MB to 3.13 GB).
 *
 * With --session-proxy, QA's parallel workers go through the validating
 * proxy to the kit's own mock (a correct deployment): 50 sessions, each
 * creating pets (200 each, then only reading), reading back what it created,
 * reading the seeded ones and listing, every session's requests one after another. Sessions get the same
 * ids for different pets; the proxy keeps what each one showed apart, so it
 * must find nothing failing in the deployment (a mixed memory once held a
 * million failing findings in a minute), and its memory must stay bounded.
 *
 * The mock runs in this process (with the default scenario, the 500-entry
 * journal, and resets that keep the store bounded); the traffic is list,
 * filter, create, get, bad input that must get its 4xx, journal reads and admin
 * resets. Every response is checked by the fuzz suite's exchange checker as
 * well as for its expected status. Reports, per 5 s window, requests, p50, p99
 * and max latency, and RSS; at the end the unexpected answers (which must be
 * none) and the RSS growth. Exits 1 on an unexpected answer, on a failing
 * finding of the proxy (--session-proxy), or when RSS grew by more than
 * --max-rss-growth percent (default 20) after the warm-up (--warm-up,
 * default 10 s: JIT and heap sizing; 20 s with --journal-flood and
 * --session-proxy, whose warm-up also waits for the journals to be full, or
 * for every session to have created its pets).
 */
import { parseArgs } from 'node:util';
import { createNodeMock } from '../src/node/create-node-mock.js';
import { createNodeListener } from '../src/node/node-listener.js';
import { createProxy } from '../src/proxy/create-proxy.js';
import { createExchangeChecker } from '../test/fuzz/support/create-exchange-checker.js';
import {
  expectedThroughProxy,
  hostileBehaviours,
  startHostileUpstream,
  type HostileBehaviour,
} from '../test/fuzz/support/hostile-upstream.js';
import { createKeepAliveAgent, sendRawRequest } from '../test/fuzz/support/send-raw-request.js';
import { startServer } from '../test/support/start-server.js';
import { createScriptUsage } from './harness/script-usage.js';

const script = createScriptUsage(
  'soak',
  `npm run soak -- --seconds N [--max-requests N] [--concurrency N] [--max-rss-growth PERCENT] [--warm-up SECONDS] [--proxy | --journal-flood | --session-proxy]`,
);
const { positiveInteger } = script;

// A declaration, so that TypeScript knows a call never returns.
function usage(message: string): never {
  return script.fail(message);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      seconds: { type: 'string' },
      'max-requests': { type: 'string' },
      concurrency: { type: 'string' },
      'max-rss-growth': { type: 'string' },
      'warm-up': { type: 'string' },
      proxy: { type: 'boolean' },
      'journal-flood': { type: 'boolean' },
      'session-proxy': { type: 'boolean' },
    },
    strict: true,
  }));
} catch (error) {
  usage((error as Error).message);
}
const flag = (name: string): string | undefined => values[name] as string | undefined;
const seconds = positiveInteger(flag('seconds'), '--seconds', 60);
const maxRequests = positiveInteger(flag('max-requests'), '--max-requests', 2_000_000);
const concurrency = positiveInteger(flag('concurrency'), '--concurrency', 8);
const maxRssGrowth = positiveInteger(flag('max-rss-growth'), '--max-rss-growth', 20);
const throughProxy = values.proxy === true;
const journalFlood = values['journal-flood'] === true;
const sessionProxy = values['session-proxy'] === true;
if ([throughProxy, journalFlood, sessionProxy].filter(Boolean).length > 1) {
  usage('--proxy, --journal-flood and --session-proxy are different soaks: pick one');
}
const windowMs = 5_000;
/** RSS growth is measured from the end of the warm-up (JIT, heap sizing), in whole windows. */
// With --journal-flood the journals fill their budget in the first seconds, and with --session-proxy the sessions
// create their pets: the warm-up waits for that.
const warmUpWindows = Math.ceil(
  (positiveInteger(flag('warm-up'), '--warm-up', journalFlood || sessionProxy ? 20 : 10) * 1000) / windowMs,
);

const key = 'soak-key';
const bodyLimit = 1024 * 1024;
const nodeMock = createNodeMock({ keys: [key], scenario: 'default', pets: 50, bodyLimit });
const store = nodeMock.store;
/** The proxy's deadline for one exchange with the upstream, with --proxy. */
const proxyDeadlineMs = 500;
const hostile = throughProxy ? await startHostileUpstream() : undefined;
const quiet = { error() {}, warn() {}, info() {}, debug() {}, isLevelEnabled: () => false };
/** With --session-proxy: the kit's mock, behind the proxy the traffic goes to. */
const upstreamMock = sessionProxy ? await startServer(createNodeListener(nodeMock)) : undefined;
const proxy = hostile
  ? createProxy({ upstream: hostile.url, timeoutMs: proxyDeadlineMs, logger: quiet })
  : upstreamMock
    ? createProxy({ upstream: `${upstreamMock.origin}/v1`, keys: [key], logger: quiet })
    : undefined;
const mock = await startServer(proxy ? proxy.listener : createNodeListener(nodeMock));
const agent = createKeepAliveAgent(concurrency);
const checkExchange = createExchangeChecker({ key, bodyLimit });

/** With --session-proxy: one QA worker's session, and the pets it created (their ids as the mock wrote them). */
interface QaSession {
  name: string;
  created: string[];
}

interface Action {
  name: string;
  weight: number;
  method: string;
  /** The request target; with --session-proxy, for the session that sends it. */
  target: (session?: QaSession) => string;
  headers?: Record<string, string>;
  body?: () => string;
  expected: number;
  /** The Error code of the answer, when the proxy answers itself. */
  code?: string;
}

const auth = { authorization: `Bearer ${key}` };
const json = { ...auth, 'content-type': 'application/json' };
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const statuses = ['available', 'pending', 'sold'] as const;

/** The traffic mix: mostly reads, some writes, bad input with the 4xx it must get, and admin calls. */
const actions: Action[] = [
  { name: 'list', weight: 25, method: 'GET', target: () => `/v1/pets?limit=${between(1, 100)}`, expected: 200 },
  {
    name: 'filter',
    weight: 15,
    method: 'GET',
    target: () => `/v1/pets?status=${pick(statuses)}&limit=${between(1, 100)}`,
    expected: 200,
  },
  {
    name: 'create',
    weight: 15,
    method: 'POST',
    target: () => '/v1/pets',
    headers: json,
    body: () => JSON.stringify({ name: `soak-${between(0, 1e6)}`, categoryId: between(1, 5), status: pick(statuses) }),
    expected: 201,
  },
  // The default scenario holds ids 1..50, and resets only ever go back to it.
  { name: 'get', weight: 15, method: 'GET', target: () => `/v1/pets/${between(1, 50)}`, expected: 200 },
  { name: 'get-missing', weight: 3, method: 'GET', target: () => `/v1/pets/${between(1e9, 2e9)}`, expected: 404 },
  {
    name: 'bad-body',
    weight: 4,
    method: 'POST',
    target: () => '/v1/pets',
    headers: json,
    body: () => pick(['{"name":"x"}', '{"name":1,"categoryId":"x"}', '{', '{"name":"x","categoryId":1e400}']),
    expected: 400,
  },
  { name: 'bad-id', weight: 3, method: 'GET', target: () => `/v1/pets/${pick(['abc', '1.5', '1e3'])}`, expected: 400 },
  {
    name: 'bad-limit',
    weight: 3,
    method: 'GET',
    target: () => `/v1/pets?limit=${pick(['0', '101', 'x'])}`,
    expected: 400,
  },
  { name: 'no-key', weight: 3, method: 'GET', target: () => '/v1/pets', headers: {}, expected: 401 },
  {
    name: 'wrong-key',
    weight: 2,
    method: 'GET',
    target: () => '/v1/pets',
    headers: { authorization: 'Bearer nope' },
    expected: 401,
  },
  { name: 'unknown-path', weight: 2, method: 'GET', target: () => `/v1/owners/${between(1, 9)}`, expected: 404 },
  { name: 'wrong-method', weight: 2, method: 'DELETE', target: () => '/v1/pets', expected: 405 },
  {
    name: 'wrong-type',
    weight: 2,
    method: 'POST',
    target: () => '/v1/pets',
    headers: { ...auth, 'content-type': 'text/plain' },
    body: () => 'name=x',
    expected: 415,
  },
  { name: 'journal', weight: 1, method: 'GET', target: () => '/__admin/requests', expected: 200 },
  { name: 'reset', weight: 1, method: 'POST', target: () => '/__admin/reset', expected: 200 },
];
/** With --proxy: every hostile behaviour, with valid answers as often as all the others together. */
const proxyActions: Action[] = hostileBehaviours.map((behaviour: HostileBehaviour) => ({
  name: behaviour,
  weight: behaviour === 'ok' ? hostileBehaviours.length - 1 : 1,
  method: 'GET',
  target: () => `/v1/pets?limit=${between(1, 100)}`,
  headers: { ...auth, 'x-hostile': behaviour },
  expected: expectedThroughProxy[behaviour].status,
  ...(expectedThroughProxy[behaviour].code ? { code: expectedThroughProxy[behaviour].code } : {}),
}));
if (throughProxy) actions.splice(0, actions.length, ...proxyActions);
/** The most one journal read returns, and every journal holds together (the mock's defaults). */
const journalReadCap = 2 * 1024 * 1024;
const journalBudgetBytes = 64 * 1024 * 1024;
/** With --journal-flood: one key, 100 sessions, requests that each hold about 40 KB in a journal, and reads. */
const floodActions: Action[] = [
  {
    name: 'heavy',
    weight: 90,
    method: 'POST',
    target: () => `/v1/pets?${'q'.repeat(12_000)}=${between(0, 1e6)}`,
    headers: { ...json, 'petstore-session': 'flood' },
    body: () => JSON.stringify({ name: 'x'.repeat(16 * 1024), categoryId: 'not a number' }),
    expected: 400,
  },
  { name: 'journal', weight: 8, method: 'GET', target: () => '/__admin/requests', expected: 200 },
  { name: 'health', weight: 2, method: 'GET', target: () => '/__admin/health', headers: {}, expected: 200 },
];
if (journalFlood) actions.splice(0, actions.length, ...floodActions);
/** With --session-proxy: 50 sessions, each a worker's own, writing and reading back through the proxy. */
const qaSessionCount = 50;
const qaSessions: QaSession[] = Array.from({ length: qaSessionCount }, (_, index) => ({
  name: `qa-${index}`,
  created: [],
}));
const sessionActions: Action[] = [
  { name: 'list', weight: 25, method: 'GET', target: () => `/v1/pets?limit=${between(1, 100)}`, expected: 200 },
  {
    name: 'create',
    weight: 25,
    method: 'POST',
    target: () => '/v1/pets',
    headers: json,
    body: () => JSON.stringify({ name: `qa-${between(0, 1e6)}`, categoryId: between(1, 5), status: pick(statuses) }),
    expected: 201,
  },
  // Read back what this session created (a session that created nothing yet reads a seeded pet).
  {
    name: 'read-back',
    weight: 30,
    method: 'GET',
    target: (session) => `/v1/pets/${session?.created.length ? pick(session.created) : between(1, 50)}`,
    expected: 200,
  },
  { name: 'get', weight: 15, method: 'GET', target: () => `/v1/pets/${between(1, 50)}`, expected: 200 },
  { name: 'get-missing', weight: 5, method: 'GET', target: () => `/v1/pets/${between(1e9, 2e9)}`, expected: 404 },
];
if (sessionProxy) actions.splice(0, actions.length, ...sessionActions);
const createAction = sessionActions[1] as Action;
const readBack = sessionActions[2] as Action;
/** Pets each session creates (ids 51 to 250 in every one of them), after which it only reads. */
const createdPerSession = 200;
/** The id of a pet the mock created, as its text (int64 ids read whole), or undefined. */
function createdId(body: Buffer): string | undefined {
  return /"id"\s*:\s*(-?\d+)/.exec(body.toString())?.[1];
}
/** A session of the flood: each request names one of 100, so that every journal fills. */
const floodSession = (): Record<string, string> => ({ 'petstore-session': `flood-${between(0, 99)}` });
/** With --journal-flood: a journal read within its cap, and health within the journals' bound. */
/** With --journal-flood: set once health shows the journals at nine tenths of their budget or more. */
let journalsFull = false;
function checkFlood(action: Action, body: Buffer): string[] {
  if (action.name === 'journal' && body.length > journalReadCap + 1024) {
    return [`a journal read of ${body.length} bytes, beyond the ${journalReadCap} cap`];
  }
  if (action.name === 'health') {
    const { journal } = JSON.parse(body.toString()) as { journal?: { bytes: number; maxBytes: number } };
    if (!journal || journal.bytes > journal.maxBytes || journal.maxBytes !== journalBudgetBytes) {
      return [`health shows the journals at ${JSON.stringify(journal)}, beyond their bound`];
    }
    if (journal.bytes >= 0.9 * journal.maxBytes) journalsFull = true;
  }
  return [];
}
const totalWeight = actions.reduce((sum, action) => sum + action.weight, 0);
function chooseAction(): Action {
  let draw = Math.random() * totalWeight;
  for (const action of actions) {
    draw -= action.weight;
    if (draw < 0) return action;
  }
  return actions[0] as Action;
}

interface Window {
  latencies: number[];
  errors: number;
}
const unexpected: string[] = [];
let unexpectedCount = 0;
let sent = 0;
let window: Window = { latencies: [], errors: 0 };
const byAction = new Map<string, number>();
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);

function note(problem: string): void {
  unexpectedCount++;
  window.errors++;
  if (unexpected.length < 20) unexpected.push(problem);
}

/** With --proxy: the answer came within the deadline, and the proxy's own answers are Error bodies with their code. */
function checkProxied(action: Action, response: { status: number; body: Buffer; durationMs: number }): string[] {
  const problems: string[] = [];
  // The deadline, plus what the loop of a busy process may add.
  if (response.durationMs > proxyDeadlineMs + 1_000)
    problems.push(`answered after ${response.durationMs.toFixed(0)} ms`);
  if (action.code) {
    try {
      const error = JSON.parse(response.body.toString()) as { code?: unknown; status?: unknown; message?: unknown };
      if (error.code !== action.code) problems.push(`code ${String(error.code)}, not ${action.code}`);
      if (error.status !== response.status || typeof error.message !== 'string') problems.push('not an Error body');
    } catch {
      problems.push('not JSON');
    }
  }
  return problems;
}

/** Worker `index` sends for its own sessions only (with --session-proxy), so that each session's requests are in order. */
async function worker(deadline: number, index: number): Promise<void> {
  const own = qaSessions.filter((_, position) => position % concurrency === index);
  while (performance.now() < deadline && sent < maxRequests) {
    sent++;
    const session = sessionProxy ? pick(own) : undefined;
    const chosen = chooseAction();
    // A session that created its share reads back instead: the mock keeps every pet, and RSS must level off.
    const action =
      session && chosen === createAction && session.created.length >= createdPerSession ? readBack : chosen;
    byAction.set(action.name, (byAction.get(action.name) ?? 0) + 1);
    const target = action.target(session);
    const headers = session
      ? { ...(action.headers ?? auth), 'petstore-session': session.name }
      : journalFlood && action.name !== 'health'
        ? { ...(action.headers ?? auth), ...floodSession() }
        : (action.headers ?? auth);
    const body = action.body ? Buffer.from(action.body()) : undefined;
    try {
      const response = await sendRawRequest(
        mock.origin,
        { method: action.method, target, headers, body },
        { agent, timeoutMs: 5_000 },
      );
      window.latencies.push(response.durationMs);
      const problems = throughProxy
        ? checkProxied(action, response)
        : [
            ...checkExchange({ method: action.method, target, headers, body }, response),
            ...(journalFlood ? checkFlood(action, response.body) : []),
          ];
      if (response.status !== action.expected) problems.unshift(`expected ${action.expected}, got ${response.status}`);
      if (session && action.name === 'create' && response.status === 201) {
        const id = createdId(response.body);
        if (id === undefined) problems.push('the created pet has no id');
        else session.created.push(id);
      }
      if (problems.length > 0) note(`${action.name} ${action.method} ${target}: ${problems.join('; ')}`);
    } catch (error) {
      note(`${action.name} ${action.method} ${target}: ${(error as Error).message}`);
    }
  }
}

const rssAtStart = process.memoryUsage().rss;
const rows: string[] = [];
let rssAfterWarmUp = rssAtStart;
/** The window whose end is the warm-up's: with --journal-flood, not before the journals are full. */
let warmUpEnd: number | undefined;
const started = performance.now();
process.stdout.write(
  `soak: ${seconds} s (at most ${maxRequests} requests), ${concurrency} connections, against ${throughProxy ? `the proxy at ${mock.origin}, in front of a hostile upstream` : journalFlood ? `${mock.origin}, flooding 100 sessions' journals` : sessionProxy ? `the proxy at ${mock.origin}, in front of the kit's mock, from ${qaSessionCount} sessions` : mock.origin}; RSS ${mb(rssAtStart)} MB\n`,
);
process.stdout.write('  window    requests   req/s     p50 ms   p99 ms   max ms   errors   RSS MB   pets\n');
const report = () => {
  const sorted = window.latencies.sort((a, b) => a - b);
  const index = rows.length + 1;
  const rss = process.memoryUsage().rss;
  const created = !sessionProxy || qaSessions.every((session) => session.created.length >= createdPerSession);
  if (warmUpEnd === undefined && index >= warmUpWindows && (!journalFlood || journalsFull) && created) {
    warmUpEnd = index;
    rssAfterWarmUp = rss;
  }
  const row = [
    `${String((index - 1) * (windowMs / 1000)).padStart(3)}-${String(Math.min(index * (windowMs / 1000), Math.round((performance.now() - started) / 1000))).padEnd(3)} s`,
    String(sorted.length).padStart(9),
    (sorted.length / (windowMs / 1000)).toFixed(0).padStart(7),
    percentile(sorted, 50).toFixed(2).padStart(10),
    percentile(sorted, 99).toFixed(2).padStart(8),
    (sorted.at(-1) ?? 0).toFixed(2).padStart(8),
    String(window.errors).padStart(8),
    mb(rss).padStart(8),
    String(store.collection('pets').size).padStart(6),
  ].join(' ');
  rows.push(row);
  process.stdout.write(`  ${row}\n`);
  window = { latencies: [], errors: 0 };
};
const timer = setInterval(report, windowMs);
const deadline = started + seconds * 1000;
if (sessionProxy && concurrency > qaSessionCount) usage(`--session-proxy: at most ${qaSessionCount} connections`);
await Promise.all(Array.from({ length: concurrency }, (_, index) => worker(deadline, index)));
clearInterval(timer);
if (window.latencies.length > 0) report();
const elapsed = (performance.now() - started) / 1000;

const journals = journalFlood
  ? await sendRawRequest(
      mock.origin,
      { method: 'GET', target: '/__admin/health', headers: {} },
      { agent, timeoutMs: 5_000 },
    ).then(
      (response) =>
        (JSON.parse(response.body.toString()) as { journal: { bytes: number; maxBytes: number; entries: number } })
          .journal,
    )
  : undefined;
const health = await sendRawRequest(
  mock.origin,
  { method: 'GET', target: '/v1/pets?limit=1', headers: auth },
  { agent, timeoutMs: 5_000 },
).then(
  (response) => response.status,
  (error: Error) => error.message,
);
// With --proxy, every misbehaving upstream connection was let go (a valid one may stay open for reuse).
const upstreamLeft = hostile ? hostile.openConnections() : 0;
/** With --session-proxy: what the proxy found in the deployment and in the clients (none may fail). */
const findings = sessionProxy && proxy ? proxy.report.levels() : undefined;
agent.destroy();
await mock.close();
await hostile?.close();
await upstreamMock?.close();

const rssAtEnd = process.memoryUsage().rss;
const growth = ((rssAtEnd - rssAfterWarmUp) / rssAfterWarmUp) * 100;
const growthFromStart = ((rssAtEnd - rssAtStart) / rssAtStart) * 100;
const mix = [...byAction.entries()].map(([name, count]) => `${name} ${count}`).join(', ');
process.stdout.write(
  [
    `soak: ${sent} requests in ${elapsed.toFixed(1)} s (${(sent / elapsed).toFixed(0)}/s); mix: ${mix}`,
    `  unexpected answers  ${unexpectedCount}${unexpected.length ? `\n    ${unexpected.join('\n    ')}` : ''}`,
    `  RSS                 ${mb(rssAtStart)} MB at start, ${mb(rssAfterWarmUp)} MB after the warm-up (${warmUpEnd === undefined ? 'not over by the end: measured from the start' : `${warmUpEnd * (windowMs / 1000)} s${journalFlood ? ', the journals full' : sessionProxy ? ', every session done creating' : ''}`}), ${mb(rssAtEnd)} MB at the end: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)}% after warm-up (${growthFromStart >= 0 ? '+' : ''}${growthFromStart.toFixed(1)}% from start; limit ${maxRssGrowth}%)`,
    `  heap                ${mb(process.memoryUsage().heapUsed)} MB used at the end; store ${store.collection('pets').size} pets`,
    `  health              ${health === 200 ? `the ${throughProxy ? 'proxy' : 'mock'} still answers 200` : `it no longer answers: ${health}`}`,
    ...(journals
      ? [
          `  journals            ${mb(journals.bytes)} MB in ${journals.entries} entries at the end, of at most ${mb(journals.maxBytes)} MB`,
        ]
      : []),
    ...(findings
      ? [
          `  proxy findings      deployment ${findings.deployment.fail} fail, ${findings.deployment.warn} warn, ${findings.deployment.observed} observed; client ${findings.client.fail} fail, ${findings.client.warn} warn (${qaSessionCount} sessions)`,
        ]
      : []),
    ...(throughProxy
      ? [
          `  upstream            ${upstreamLeft} connection(s) still open at the end (at most ${concurrency}, kept for reuse)`,
        ]
      : []),
    '',
  ].join('\n'),
);
const proxyFailed = findings !== undefined && (findings.deployment.fail > 0 || findings.client.fail > 0);
if (unexpectedCount > 0 || health !== 200 || growth > maxRssGrowth || upstreamLeft > concurrency || proxyFailed) {
  process.exit(1);
}

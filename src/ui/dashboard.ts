// The dashboard (GET /__admin/ui): a small page of the kit's own that drives the admin API with the key the
// user enters (kept in sessionStorage, never in the URL). Every text from the mock goes in as textContent.

import { parseExactJson } from '../core/json/exact-json.js';

const keyStorage = 'petstore-kit:key';
const sessionStorageKey = 'petstore-kit:session';

/** An element with attributes and children; strings become text, never HTML. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) element.append(child);
  return element;
}

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page lost #${id}`);
  return found as T;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Calls the mock with the key and the session the user chose. */
async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const key = sessionStorage.getItem(keyStorage) ?? '';
  const session = sessionStorage.getItem(sessionStorageKey) ?? '';
  const headers = new Headers(init.headers);
  if (key !== '') headers.set('Authorization', `Bearer ${key}`);
  if (session !== '') headers.set('Petstore-Session', session);
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  const response = await fetch(path, { ...init, headers });
  const text = await response.text();
  // Read exactly, as the mock wrote it: ids beyond 2^53 become bigints, not rounded numbers.
  const body = text === '' ? undefined : parseExactJson(text);
  if (!response.ok) {
    const message = (body as { message?: string } | undefined)?.message ?? response.statusText;
    throw new ApiError(response.status, message);
  }
  return body as T;
}

function say(message: string, kind: 'info' | 'error' = 'info'): void {
  const status = byId('status');
  status.textContent = message;
  status.className = kind;
}

function failed(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) {
    say(
      'The key was refused (401). Enter the key the mock was started with: --token or PETSTORE_TOKEN, or dev-key when none was set.',
      'error',
    );
  } else if (error instanceof ApiError) {
    say(`The mock answered ${error.status}: ${error.message}`, 'error');
  } else {
    say(`The mock cannot be reached: ${(error as Error).message}`, 'error');
  }
}

/** The table's column names, one per column (a header spanning two columns names both). */
function columnNames(tbody: HTMLTableSectionElement): string[] {
  const headers = tbody.parentElement?.querySelectorAll('thead th') ?? [];
  return [...headers].flatMap((header) =>
    Array.from({ length: Number(header.getAttribute('colspan') ?? 1) }, () => header.textContent ?? ''),
  );
}

/**
 * The rows, each cell labelled with its column's name (`data-label`), so that
 * on a narrow screen, where the CSS lays each row out as a list, every value
 * still says what it is and no column is cut off.
 */
function fillTable(tbody: HTMLTableSectionElement, rows: Array<Array<Node | string>>, empty: string): void {
  const names = columnNames(tbody);
  tbody.replaceChildren(
    ...(rows.length === 0
      ? [el('tr', {}, el('td', { colspan: '8', class: 'empty' }, empty))]
      : rows.map((cells) =>
          el('tr', {}, ...cells.map((cell, index) => el('td', { 'data-label': names[index] ?? '' }, cell))),
        )),
  );
}

// ------------------------------------------------------------------------------------------------ scenario and items

/** An item as the store holds it: the fields its collection's schema names (ids beyond 2^53 as bigints). */
type Item = Record<string, unknown>;

/** The scenario the switcher last showed as current. */
let scenarioShown: string | undefined;

interface Scenarios {
  current: string;
  scenarios: Array<{ name: string; description: string }>;
}

function renderScenario({ current, scenarios }: Scenarios): void {
  byId('scenario-current').textContent = current;
  const select = byId<HTMLSelectElement>('scenario-choice');
  // A choice the user made and has not switched to yet survives a refresh, unless the scenario changed meanwhile.
  const picked = select.value !== '' && select.value !== scenarioShown && current === scenarioShown ? select.value : '';
  select.replaceChildren(
    ...scenarios.map((scenario) => el('option', { value: scenario.name, title: scenario.description }, scenario.name)),
  );
  select.value = scenarios.some((scenario) => scenario.name === picked) ? picked : current;
  scenarioShown = current;
}

/** What `GET /__admin/store` answers: one collection's items as the session's store holds them, and its filters. */
interface StoredItems {
  scenario: string;
  /** The collection read. */
  resource: string;
  size: number;
  /** The fields of the items, the id first, as the document names them: the table's columns. */
  fields: string[];
  filters: Array<{ name: string; values: unknown[] }>;
  items: Item[];
}

/** The API's collections, once read. */
let collectionsRead: string[] | undefined;

/** The API's collections (`GET /__admin/sessions` names them): one select, made once, every collection equal. */
function renderCollections(collections: readonly string[]): void {
  const select = byId<HTMLSelectElement>('items-collection');
  if ([...select.options].map((option) => option.value).join(' ') === collections.join(' ')) return;
  const picked = select.value;
  select.replaceChildren(...collections.map((name) => el('option', { value: name }, name)));
  if (collections.includes(picked)) select.value = picked;
}

/**
 * The items of the collection chosen, read through the admin API (`GET
 * /__admin/store?resource=…`), never through the API: a read of the API
 * would use up a fault scheduled for the session and go into its journal,
 * changing what the dashboard is there to observe.
 */
function loadItems(): Promise<StoredItems> {
  const query = new URLSearchParams({ limit: '100' });
  const resource = byId<HTMLSelectElement>('items-collection').value;
  if (resource !== '') query.set('resource', resource);
  for (const select of byId('items-filters').querySelectorAll('select')) {
    if (select.value !== '') query.set(select.name, select.value);
  }
  return api<StoredItems>(`/__admin/store?${query}`);
}

/** One select per filter of the collection (their values come from the document), made again when they change. */
function renderFilters(filters: StoredItems['filters']): void {
  const box = byId('items-filters');
  const shown = [...box.querySelectorAll('select')].map((select) => select.name).join(' ');
  if (shown === filters.map((filter) => filter.name).join(' ')) return;
  box.replaceChildren(
    ...filters.flatMap(({ name, values }) => {
      const select = el(
        'select',
        { id: `items-filter-${name}`, name },
        el('option', { value: '' }, 'any'),
        ...values.map((value) => el('option', { value: String(value) }, String(value))),
      );
      select.addEventListener('change', () => void showItems().catch(failed));
      return [el('label', { for: select.id }, name), ' ', select, ' '];
    }),
  );
}

/** One header cell per field, made again only when the fields change. */
function renderColumns(fields: readonly string[]): void {
  const row = byId('items-columns');
  if ([...row.children].map((cell) => cell.textContent).join(' ') === fields.join(' ')) return;
  row.replaceChildren(...fields.map((field) => el('th', { scope: 'col' }, field)));
}

/** A value as a cell shows it: text as it is, numbers with every digit, an absent field as a dash. */
function cellText(value: unknown): string {
  if (value === undefined) return '—';
  return typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

function renderItems({ resource, fields, filters, items, size }: StoredItems): void {
  renderFilters(filters);
  renderColumns(fields);
  byId('items-size').textContent = `${size} ${resource}`;
  // Ids beyond 2^53 arrive as bigints (see api()) and are shown with every digit.
  fillTable(
    byId<HTMLTableSectionElement>('items-rows'),
    items.map((item) => fields.map((field) => cellText(item[field]))),
    `No ${resource}.`,
  );
}

async function showItems(): Promise<void> {
  renderItems(await loadItems());
}

/**
 * The scenario's name and the chosen collection's items, read together, so
 * that the page never shows one without the other. The collections come
 * first (from the sessions' list, which counts each), so that a document of
 * several collections is read one named collection at a time.
 */
async function showScenarioAndItems(): Promise<void> {
  // A mock's collections never change: asked for once.
  collectionsRead ??= (await api<{ collections: string[] }>('/__admin/sessions')).collections;
  renderCollections(collectionsRead);
  const [scenarios, items] = await Promise.all([api<Scenarios>('/__admin/scenarios'), loadItems()]);
  renderScenario(scenarios);
  renderItems(items);
}

// ------------------------------------------------------------------------------------------------ journal

interface JournalEntry {
  id: string;
  time: string;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  headers: Record<string, string | string[]>;
  body?: string;
  responseBody?: string;
  admin?: boolean;
  fault?: string;
}

async function showJournal(): Promise<void> {
  const { requests } = await api<{ requests: JournalEntry[] }>('/__admin/requests');
  const rows = [...requests].reverse().map((entry) => {
    const details = el(
      'details',
      {},
      el('summary', {}, `${entry.method} ${entry.url}`),
      el('h3', {}, 'Request headers'),
      el('pre', {}, JSON.stringify(entry.headers, null, 2)),
      el('h3', {}, 'Request body'),
      el('pre', {}, entry.body ?? '(none)'),
      el('h3', {}, 'Response body'),
      el('pre', {}, entry.responseBody ?? '(none)'),
    );
    const status = entry.fault ? `fault: ${entry.fault}` : String(entry.status);
    return [entry.time.slice(11, 23), details, status, `${entry.durationMs} ms`, entry.admin ? 'admin' : 'API'];
  });
  fillTable(byId<HTMLTableSectionElement>('journal-rows'), rows, 'No requests yet.');
}

// ------------------------------------------------------------------------------------------------ sessions

/** A session as `GET /__admin/sessions` lists it, with a count of each collection's items under its name. */
interface SessionRow {
  name: string;
  scenario: string;
  copied: boolean;
  requests: number;
  faults: number;
  [collection: string]: unknown;
}

function useSession(name: string): void {
  if (name === 'default') sessionStorage.removeItem(sessionStorageKey);
  else sessionStorage.setItem(sessionStorageKey, name);
  byId<HTMLInputElement>('session').value = name === 'default' ? '' : name;
  void refresh();
}

async function showSessions(): Promise<void> {
  const { sessions, max, collections } = await api<{ sessions: SessionRow[]; max: number; collections: string[] }>(
    '/__admin/sessions',
  );
  byId('sessions-max').textContent = String(max);
  const rows = sessions.map((session) => {
    const use = el('button', { type: 'button' }, 'Use');
    use.addEventListener('click', () => useSession(session.name));
    const cells: Array<Node | string> = [
      session.name,
      session.scenario,
      collections.map((name) => `${String(session[name])} ${name}`).join(', '),
      session.copied ? 'own copy' : 'shared',
      String(session.requests),
      String(session.faults),
      use,
    ];
    if (session.name !== 'default') {
      const drop = el('button', { type: 'button' }, 'Drop');
      drop.addEventListener('click', () =>
        api(`/__admin/sessions/${encodeURIComponent(session.name)}`, { method: 'DELETE' }).then(refresh, failed),
      );
      cells.push(drop);
    }
    return cells;
  });
  fillTable(byId<HTMLTableSectionElement>('sessions-rows'), rows, 'No sessions.');
}

// ------------------------------------------------------------------------------------------------ faults and latency

interface Fault {
  id: number;
  operationId?: string;
  status?: number;
  fault?: string;
  times?: number;
  probability?: number;
}

async function showFaults(): Promise<void> {
  const { faults } = await api<{ faults: Fault[] }>('/__admin/faults');
  fillTable(
    byId<HTMLTableSectionElement>('faults-rows'),
    faults.map((fault) => [
      String(fault.id),
      fault.operationId ?? 'every operation',
      fault.status !== undefined ? `status ${fault.status}` : (fault.fault ?? ''),
      fault.times === undefined ? 'until cleared' : String(fault.times),
      fault.probability === undefined ? '1' : String(fault.probability),
    ]),
    'No fault is scheduled.',
  );
  const latency = await api<{ min: number; max: number }>('/__admin/latency');
  byId('latency-current').textContent =
    latency.max === 0 ? 'none' : latency.min === latency.max ? `${latency.min} ms` : `${latency.min}–${latency.max} ms`;
}

async function addFault(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const fault: Record<string, unknown> = {};
  const operationId = String(form.get('operationId'));
  if (operationId !== '') fault.operationId = operationId;
  const kind = String(form.get('kind'));
  if (kind === 'status') fault.status = Number(form.get('status'));
  else fault.fault = kind;
  const times = String(form.get('times'));
  if (times !== '') fault.times = Number(times);
  const probability = String(form.get('probability'));
  if (probability !== '') fault.probability = Number(probability);
  await api('/__admin/faults', { method: 'POST', body: JSON.stringify(fault) });
  say('The fault is scheduled.');
  await showFaults();
}

async function setLatency(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const min = Number(form.get('min') || 0);
  const max = Number(form.get('max') || min);
  await api('/__admin/latency', { method: 'PUT', body: JSON.stringify({ min, max }) });
  say('The latency is set.');
  await showFaults();
}

// ------------------------------------------------------------------------------------------------ proxy report

interface ReportedFinding {
  level: 'fail' | 'warn' | 'observed';
  rule: string;
  message: string;
  request: string;
  status: number;
}

interface ProxyReport {
  upstream: string;
  exchanges: number;
  failed: boolean;
  deployment: { fail: number; warn: number; observed: number; findings: ReportedFinding[] };
  client: { fail: number; warn: number; observed: number; findings: ReportedFinding[] };
  coverage: Array<{ operationId: string; status: string; documented: boolean; count: number }>;
}

async function showViolations(): Promise<void> {
  let report: ProxyReport;
  try {
    report = await api<ProxyReport>('/__admin/violations');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return;
    throw error;
  }
  byId('violations').hidden = false;
  const { deployment, client } = report;
  byId('violations-upstream').textContent =
    `${report.exchanges} exchanges with ${report.upstream}: the deployment ${deployment.fail} fail, ${deployment.warn} warn; ` +
    `the client ${client.fail} fail, ${client.warn} warn`;
  // Failures and warnings, the deployment's first; observations stay in the JSON report.
  const shown = [...deployment.findings, ...client.findings].filter((found) => found.level !== 'observed');
  fillTable(
    byId<HTMLTableSectionElement>('violations-rows'),
    shown.map((found) => [
      found.request,
      String(found.status),
      `${found.level} ${found.rule}${deployment.findings.includes(found) ? '' : ' (client)'}`,
      found.message,
    ]),
    'Nothing fails or warns so far.',
  );
  fillTable(
    byId<HTMLTableSectionElement>('coverage-rows'),
    report.coverage.map((row) => [
      row.operationId,
      row.status,
      String(row.count),
      row.documented ? (row.count === 0 ? 'not exercised' : '') : 'not in the document',
    ]),
    'No coverage yet.',
  );
}

// ------------------------------------------------------------------------------------------------ the page

/** What the server is (`GET /__admin/health`): only the validating proxy has violations to show. */
let role: Promise<'mock' | 'proxy' | undefined> = Promise.resolve(undefined);

async function readRole(): Promise<'mock' | 'proxy' | undefined> {
  try {
    const health = (await (await fetch('/__admin/health')).json()) as { role?: 'mock' | 'proxy' };
    return health.role;
  } catch {
    return undefined;
  }
}

/** What a poll reads again: the same as a refresh (the proxy's violations too), without its messages. */
async function poll(): Promise<void> {
  const violations = (await role) === 'proxy' ? showViolations() : undefined;
  await Promise.all([showScenarioAndItems(), showJournal(), showSessions(), showFaults(), violations]);
}

async function refresh(): Promise<void> {
  try {
    await poll();
    byId('panels').hidden = false;
  } catch (error) {
    // A refused key shows no data, rather than what an earlier key read.
    if (error instanceof ApiError && error.status === 401) byId('panels').hidden = true;
    failed(error);
  }
}

async function fillOperations(): Promise<void> {
  const document = (await (await fetch('/openapi.json')).json()) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const select = byId<HTMLSelectElement>('fault-operation');
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      if (operation.operationId) select.append(el('option', { value: operation.operationId }, operation.operationId));
    }
  }
}

interface PageConfig {
  /** The key to fill in, only when the server accepts nothing but the public `dev-key` (as the reference does). */
  defaultKey: string | null;
}

/** Fills in the public `dev-key` when the server accepts only it, and no key was entered in this tab. */
async function fillDefaultKey(keyInput: HTMLInputElement): Promise<void> {
  if (sessionStorage.getItem(keyStorage) !== null) return;
  let config: PageConfig;
  try {
    config = (await (await fetch('/__admin/docs/config.json')).json()) as PageConfig;
  } catch {
    return;
  }
  if (!config.defaultKey || sessionStorage.getItem(keyStorage) !== null) return;
  keyInput.value = config.defaultKey;
  sessionStorage.setItem(keyStorage, config.defaultKey);
  say('Connected with the mock’s default key, dev-key.');
  await refresh();
}

function start(): void {
  const keyInput = byId<HTMLInputElement>('key');
  const sessionInput = byId<HTMLInputElement>('session');
  keyInput.value = sessionStorage.getItem(keyStorage) ?? '';
  sessionInput.value = sessionStorage.getItem(sessionStorageKey) ?? '';
  role = readRole();
  byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(keyStorage, keyInput.value.trim());
    if (sessionInput.value.trim() === '') sessionStorage.removeItem(sessionStorageKey);
    else sessionStorage.setItem(sessionStorageKey, sessionInput.value.trim());
    say('Connecting…');
    void refresh().then(() => {
      if (byId('status').className !== 'error') say('Connected.');
    });
  });
  byId<HTMLFormElement>('scenario-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = byId<HTMLSelectElement>('scenario-choice').value;
    api('/__admin/scenario', { method: 'POST', body: JSON.stringify({ name }) })
      .then(() => say(`Switched to ${name}.`))
      .then(refresh, failed);
  });
  byId('reset').addEventListener('click', () =>
    api('/__admin/reset', { method: 'POST' })
      .then(() => say('Back to the scenario’s items.'))
      .then(refresh, failed),
  );
  byId('items-collection').addEventListener('change', () => void showItems().catch(failed));
  byId<HTMLFormElement>('fault-form').addEventListener('submit', (event) => void addFault(event).catch(failed));
  byId('faults-clear').addEventListener('click', () =>
    api('/__admin/faults', { method: 'DELETE' }).then(showFaults, failed),
  );
  byId<HTMLFormElement>('latency-form').addEventListener('submit', (event) => void setLatency(event).catch(failed));
  byId('journal-clear').addEventListener('click', () =>
    api('/__admin/requests', { method: 'DELETE' }).then(showJournal, failed),
  );
  // The page is live: everything is read again every second while the box is ticked and a key is set, the faults
  // and the sessions' counters as much as the journal. Every read is an admin GET, which uses no fault and goes into
  // no journal, so polling changes nothing it shows. One poll at a time: a slow mock is not asked again meanwhile.
  let polling = false;
  setInterval(() => {
    if (polling || !byId<HTMLInputElement>('live').checked || byId('panels').hidden) return;
    polling = true;
    void poll()
      .catch(failed)
      .finally(() => (polling = false));
  }, 1000);
  void fillOperations();
  if (keyInput.value !== '') void refresh();
  else void fillDefaultKey(keyInput);
}

start();

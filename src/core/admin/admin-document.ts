import type { OpenAPIV3 } from 'openapi-types';
import { faultKinds } from '../state/state-store.js';
import { sessionNamePattern } from '../http/session-header.js';
import type { StoreFilter } from './store-filters.js';

/** The most items one `GET /__admin/store` lists. */
export const maxStoreReadLimit = 1000;

/**
 * The admin's own schemas are named `Admin…`, so that they sit beside the API's
 * schemas (carried whole, for whatever its Error refers to) without a clash.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name === 'Error' ? name : `Admin${name}`}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const ok = (description: string, ref: string) => ({ '200': { description, content: json(ref) } });
const errors = (...statuses: Array<'400' | '404' | '409'>) =>
  Object.fromEntries([
    ['401', { description: 'Missing or invalid key', content: json('Error') }],
    ...statuses.map((status) => [status, { description: 'Refused', content: json('Error') }]),
  ]);
const body = (ref: string) => ({ required: true, content: json(ref) });

/**
 * The admin API, described as its own small OpenAPI document so that it runs
 * through the same pipeline (route match, auth, validation of requests and
 * responses) as the animals API. It is served under `/__admin` and is not
 * part of openapi.yaml. Its Error schema is the API's own, with every schema
 * of the API's document beside it so that Error's references resolve. Every operation
 * acts on the session the request names (`Petstore-Session`), the default one
 * without the header; `security: []` marks the few that need no key.
 */
export function createAdminDocument(
  apiSchemas: Readonly<Record<string, OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject>>,
  /** The API's collections (`pets`): a store's state counts the items of each. */
  collections: readonly string[],
  /** The query parameters `GET /store` takes besides `limit`: the API's own filters (see store-filters.ts). */
  filters: readonly StoreFilter[] = [],
): OpenAPIV3.Document {
  const counts = Object.fromEntries(collections.map((name) => [name, { type: 'integer', minimum: 0 }]));
  return {
    openapi: '3.0.3',
    info: { title: 'petstore-kit admin API', version: '1.0.0' },
    security: [{ bearerAuth: [] }],
    paths: {
      '/health': {
        get: {
          operationId: 'health',
          security: [],
          responses: {
            ...ok('The mock serves requests', 'Health'),
            '503': {
              description: 'The mock serves requests, but refuses changes: its state file cannot be written',
              content: json('Error'),
            },
          },
        },
      },
      '/scenarios': {
        get: {
          operationId: 'listScenarios',
          responses: { ...ok('The scenarios and the current one', 'Scenarios'), ...errors() },
        },
      },
      '/scenario': {
        post: {
          operationId: 'switchScenario',
          requestBody: body('ScenarioChoice'),
          responses: { ...ok('The store now holds the scenario', 'StoreState'), ...errors('400', '404') },
        },
      },
      '/reset': {
        post: {
          operationId: 'resetStore',
          // A reset empties the journal: it is not itself kept in it, so the journal reads empty after it.
          'x-petstore-journal': false,
          responses: {
            ...ok(
              'The session is back to its start: the scenario it was made with and its items, no faults, the configured latency and clock, an empty journal',
              'StoreState',
            ),
            ...errors(),
          },
        },
      },
      '/requests': {
        get: {
          operationId: 'listRequests',
          responses: { ...ok('The journal, oldest first', 'Journal'), ...errors() },
        },
        delete: {
          operationId: 'clearRequests',
          // Emptying the journal is not itself kept in it: a cleared journal reads empty.
          'x-petstore-journal': false,
          responses: { ...ok('The journal is empty', 'Cleared'), ...errors() },
        },
      },
      '/sessions': {
        get: {
          operationId: 'listSessions',
          responses: { ...ok('Every session, the least recently used first', 'Sessions'), ...errors() },
        },
      },
      '/sessions/{name}': {
        delete: {
          operationId: 'dropSession',
          parameters: [
            { name: 'name', in: 'path', required: true, schema: { type: 'string', pattern: sessionNamePattern } },
          ],
          responses: { ...ok('The session is gone', 'Dropped'), ...errors('400', '404') },
        },
      },
      '/faults': {
        get: {
          operationId: 'listFaults',
          responses: { ...ok('The faults still to come', 'Faults'), ...errors() },
        },
        post: {
          operationId: 'addFault',
          requestBody: body('NewFault'),
          responses: { ...ok('The fault is scheduled', 'Fault'), ...errors('400', '409') },
        },
        delete: {
          operationId: 'clearFaults',
          responses: { ...ok('No fault is scheduled any more', 'Cleared'), ...errors() },
        },
      },
      '/violations': {
        get: {
          operationId: 'listViolations',
          responses: {
            ...ok('What the validating proxy found in the traffic so far, and its coverage', 'ProxyReport'),
            ...errors('404'),
          },
        },
      },
      '/store': {
        get: {
          operationId: 'readStore',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: maxStoreReadLimit, default: 100 },
            },
            ...filters.map(({ name, schema }) => ({ name, in: 'query', required: false, schema })),
          ],
          responses: {
            ...ok(
              'What the session holds, read from its store as it is: no fault is used, nothing is journalled',
              'StoredItems',
            ),
            ...errors('400'),
          },
        },
      },
      '/latency': {
        get: {
          operationId: 'getLatency',
          responses: { ...ok('The latency of the session', 'Latency'), ...errors() },
        },
        put: {
          operationId: 'setLatency',
          requestBody: body('Latency'),
          responses: { ...ok('The latency from now on', 'Latency'), ...errors('400') },
        },
      },
      '/clock': {
        get: {
          operationId: 'getClock',
          responses: { ...ok("The session's time, and how far it is from the mock's clock", 'Clock'), ...errors() },
        },
        put: {
          operationId: 'setClock',
          requestBody: body('ClockChoice'),
          responses: {
            ...ok("The session's time from now on, running on from the moment given", 'Clock'),
            ...errors('400'),
          },
        },
        delete: {
          operationId: 'resetClock',
          responses: { ...ok("The session's time is the mock's clock again", 'Clock'), ...errors() },
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: {
        ...apiSchemas,
        AdminHealth: {
          type: 'object',
          required: ['status', 'role'],
          properties: {
            status: { type: 'string', enum: ['ok'] },
            // The validating proxy (petstore-mock proxy) or the mock: only a proxy has violations to list.
            role: { type: 'string', enum: ['mock', 'proxy'] },
            // Issue 27: what every session's journal holds together, against its bound.
            journal: {
              type: 'object',
              required: ['bytes', 'maxBytes', 'entries'],
              properties: {
                bytes: { type: 'integer', minimum: 0 },
                maxBytes: { type: 'integer', minimum: 1 },
                entries: { type: 'integer', minimum: 0 },
              },
            },
          },
        },
        AdminScenarioChoice: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1 } },
        },
        AdminStoreState: {
          type: 'object',
          required: ['scenario', ...collections],
          properties: { scenario: { type: 'string' }, ...counts },
        },
        AdminClockChoice: {
          type: 'object',
          required: ['now'],
          additionalProperties: false,
          properties: {
            now: {
              type: 'string',
              minLength: 1,
              maxLength: 64,
              description: 'A date (2030-12-06) or date-time (2030-12-06T09:30:00Z)',
            },
          },
        },
        AdminClock: {
          type: 'object',
          required: ['now', 'offsetMs'],
          properties: { now: { type: 'string', format: 'date-time' }, offsetMs: { type: 'integer' } },
        },
        AdminScenarios: {
          type: 'object',
          required: ['current', 'scenarios'],
          properties: {
            current: { type: 'string' },
            scenarios: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'description'],
                properties: { name: { type: 'string' }, description: { type: 'string' } },
              },
            },
          },
        },
        AdminJournal: {
          type: 'object',
          required: ['capacity', 'dropped', 'requests'],
          properties: {
            capacity: { type: 'integer' },
            dropped: { type: 'integer' },
            requests: { type: 'array', items: { type: 'object', required: ['method', 'url', 'status'] } },
            // Issue 27: the oldest entries this read left out to stay within maxReadBytes (0: none).
            omitted: { type: 'integer', minimum: 0 },
            maxReadBytes: { type: 'integer', minimum: 1 },
          },
        },
        AdminCleared: { type: 'object', required: ['cleared'], properties: { cleared: { type: 'integer' } } },
        AdminSessions: {
          type: 'object',
          required: ['max', 'sessions'],
          properties: {
            max: { type: 'integer', minimum: 1 },
            sessions: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'scenario', ...collections, 'copied', 'requests', 'faults'],
                properties: {
                  name: { type: 'string' },
                  scenario: { type: 'string' },
                  ...counts,
                  copied: { type: 'boolean' },
                  requests: { type: 'integer', minimum: 0 },
                  faults: { type: 'integer', minimum: 0 },
                  latency: ref('Latency'),
                },
              },
            },
          },
        },
        AdminStoredItems: {
          type: 'object',
          required: ['scenario', 'size', 'fields', 'filters', 'items'],
          properties: {
            scenario: { type: 'string' },
            // How many items the store holds in all; `items` is the first `limit` of them (those the filters keep).
            size: { type: 'integer', minimum: 0 },
            filters: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'values'],
                properties: { name: { type: 'string' }, values: { type: 'array', items: {} } },
              },
            },
            items: { type: 'array', items: { type: 'object' } },
          },
        },
        AdminDropped: { type: 'object', required: ['dropped'], properties: { dropped: { type: 'string' } } },
        AdminNewFault: {
          type: 'object',
          additionalProperties: false,
          description: 'Exactly one of status (an HTTP error) and fault (a broken connection).',
          properties: {
            operationId: { type: 'string', minLength: 1 },
            status: { type: 'integer', minimum: 400, maximum: 599 },
            fault: { type: 'string', enum: [...faultKinds] },
            times: { type: 'integer', minimum: 1, maximum: 1_000_000 },
            probability: { type: 'number', minimum: 0, maximum: 1 },
          },
        },
        AdminFault: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'integer' },
            operationId: { type: 'string' },
            status: { type: 'integer' },
            fault: { type: 'string' },
            times: { type: 'integer', description: 'How many more requests it hits; absent: until cleared' },
            probability: { type: 'number' },
          },
        },
        AdminFaults: {
          type: 'object',
          required: ['faults'],
          properties: { faults: { type: 'array', items: ref('Fault') } },
        },
        AdminProxyFindings: {
          type: 'object',
          required: ['fail', 'warn', 'observed', 'findings'],
          properties: {
            fail: { type: 'integer', minimum: 0 },
            warn: { type: 'integer', minimum: 0 },
            observed: { type: 'integer', minimum: 0 },
            findings: {
              type: 'array',
              items: {
                type: 'object',
                required: ['rule', 'level', 'side', 'basis', 'message', 'request', 'status'],
                properties: {
                  level: { type: 'string', enum: ['fail', 'warn', 'observed'] },
                  side: { type: 'string', enum: ['request', 'response'] },
                },
              },
            },
          },
        },
        AdminProxyReport: {
          type: 'object',
          required: ['upstream', 'exchanges', 'failOn', 'strict', 'failed', 'deployment', 'client', 'coverage'],
          properties: {
            upstream: { type: 'string' },
            exchanges: { type: 'integer', minimum: 0 },
            failOn: { type: 'string', enum: ['deployment', 'client', 'any', 'none'] },
            strict: { type: 'boolean' },
            failed: { type: 'boolean' },
            deployment: ref('ProxyFindings'),
            client: ref('ProxyFindings'),
            coverage: { type: 'array', items: { type: 'object', required: ['operationId', 'status', 'count'] } },
          },
        },
        AdminLatency: {
          type: 'object',
          required: ['min', 'max'],
          additionalProperties: false,
          properties: {
            min: { type: 'integer', minimum: 0, maximum: 60_000 },
            max: { type: 'integer', minimum: 0, maximum: 60_000 },
          },
        },
      },
    },
  } as OpenAPIV3.Document;
}

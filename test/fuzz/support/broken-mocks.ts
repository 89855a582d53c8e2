import type { RequestListener } from 'node:http';
import express from 'express';
import type { MemoryStore } from '../../../src/core/store/memory-store.js';

type PetStore = MemoryStore;
import { petstoreMiddleware } from '../../../src/adapters/express-middleware.js';
import { createNodeMock, type NodeMockOptions } from '../../../src/node/create-node-mock.js';
import { createNodeListener } from '../../../src/node/node-listener.js';
import { petsIn } from '../../support/kit-model.js';

/** A copy of the mock with one protection taken out, to prove that the fuzz properties notice. */
export interface BrokenMock {
  app: RequestListener;
  store: PetStore;
}

type MockOptions = NodeMockOptions & { keys: string[] };

/** The mock as a Node listener, with its store for the invariant checks. */
function createMockApp(options: MockOptions) {
  const mock = createNodeMock(options);
  return { mock, app: createNodeListener(mock), store: mock.store };
}

/** The textbook polluting merge: it follows `__proto__` and `constructor.prototype` into the built-ins. */
function naiveMerge(target: Record<string, unknown>, source: unknown): Record<string, unknown> {
  if (typeof source !== 'object' || source === null) return target;
  for (const [key, value] of Object.entries(source)) {
    if (typeof value === 'object' && value !== null) {
      const next = (target[key] ?? {}) as Record<string, unknown>;
      target[key] = naiveMerge(next, value);
    } else {
      target[key] = value;
    }
  }
  return target;
}

/**
 * The mock with one protection removed, each the way a real regression would
 * look: no body limit, no authentication, a polluting merge of the JSON body,
 * HTML error pages, a crash on some paths, a hang, a 2xx that breaks the
 * document, a store that lists a pet twice.
 */
export const brokenMocks = {
  'accepts any body size': (options: MockOptions): BrokenMock => {
    const { app, store } = createMockApp({ ...options, bodyLimit: Number.MAX_SAFE_INTEGER });
    return { app, store };
  },
  'skips authentication': (options: MockOptions): BrokenMock => {
    const { app: mock, store } = createMockApp(options);
    const app = express();
    app.use((req, res, _next) => {
      req.headers.authorization = `Bearer ${options.keys[0]}`;
      mock(req, res);
    });
    return { app, store };
  },
  'merges JSON bodies into a plain object': (options: MockOptions): BrokenMock => {
    const { mock: core, app: mock, store } = createMockApp(options);
    // Mounted after the body parser, the middleware takes the bytes express.raw read.
    const afterParser = petstoreMiddleware({ mock: core });
    const app = express();
    const limit = options.bodyLimit ?? 1024 * 1024;
    app.use((req, res, next) => {
      // Oversize and encoded bodies go straight to the mock, which refuses them: only the merge is broken here.
      if (Number(req.headers['content-length'] ?? 0) > limit || req.headers['content-encoding']) mock(req, res);
      else next();
    });
    app.use(express.raw({ type: () => true, limit }), (req, res, _next) => {
      try {
        naiveMerge({}, JSON.parse((req.body as Buffer).toString('utf8')));
      } catch {
        // not JSON: nothing to merge
      }
      afterParser(req, res, () => mock(req, res));
    });
    return { app, store };
  },
  'answers unknown paths with an HTML page': (options: MockOptions): BrokenMock => {
    const { app: mock, store } = createMockApp(options);
    const app = express();
    app.use((req, res, _next) => {
      if (req.path.startsWith('/v1/') || req.path.startsWith('/__admin/')) mock(req, res);
      else res.status(404).type('html').send('<h1>Not Found</h1>');
    });
    return { app, store };
  },
  'crashes on percent-encoded paths': (options: MockOptions): BrokenMock => {
    const { app: mock, store } = createMockApp(options);
    const app = express();
    app.use((req, res, _next) => {
      if (req.path.includes('%')) throw new Error('unexpected percent-encoding');
      mock(req, res);
    });
    return { app, store };
  },
  'never answers DELETE': (options: MockOptions): BrokenMock => {
    const { app: mock, store } = createMockApp(options);
    const app = express();
    app.use((req, res, _next) => {
      if (req.method !== 'DELETE') mock(req, res);
    });
    return { app, store };
  },
  'lists pets without their name': (options: MockOptions): BrokenMock => {
    const { app: mock, store } = createMockApp(options);
    const app = express();
    app.get('/v1/pets', (req, res) => {
      const pets = petsIn(store)
        .list({ limit: 20 })
        .map(({ name: _name, ...rest }) => rest);
      res.type('application/json').send(JSON.stringify(pets));
    });
    app.use(mock);
    return { app, store };
  },
  'lists a pet twice': (options: MockOptions): BrokenMock => {
    const mock = createNodeMock(options);
    // A handler that lists the first pet twice: ids are no longer unique.
    const duplicating = {
      handle: async (request: Parameters<typeof mock.handle>[0]) => {
        const response = await mock.handle(request);
        if (request.method !== 'GET' || request.path !== '/v1/pets' || response.status !== 200 || !response.body) {
          return response;
        }
        const pets = JSON.parse(new TextDecoder().decode(response.body)) as unknown[];
        const body = new TextEncoder().encode(JSON.stringify(pets[0] ? [...pets, pets[0]] : pets));
        return { ...response, headers: { ...response.headers, 'content-length': String(body.length) }, body };
      },
    };
    return { app: createNodeListener(duplicating), store: mock.store };
  },
} satisfies Record<string, (options: MockOptions) => BrokenMock>;

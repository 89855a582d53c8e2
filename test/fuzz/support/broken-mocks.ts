import type { RequestListener } from 'node:http';
import express from 'express';
import { createApp, type AppOptions } from '../../../src/core/create-mock.js';
import type { ListQuery } from '../../../src/core/store/pet-store.js';
import { PetStore } from '../../../src/core/store/pet-store.js';

/** A copy of the mock with one protection taken out, to prove that the fuzz properties notice. */
export interface BrokenMock {
  app: RequestListener;
  store: PetStore;
}

type MockOptions = AppOptions & { keys: string[]; store: PetStore };

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

/** Lists the first pet twice: ids are no longer unique. */
class DuplicatingStore extends PetStore {
  override list(query: ListQuery) {
    const pets = super.list(query);
    return pets[0] ? [...pets, pets[0]] : pets;
  }
}

/**
 * The mock with one protection removed, each the way a real regression would
 * look: no body limit, no authentication, a polluting merge of the JSON body,
 * HTML error pages, a crash on some paths, a hang, a 2xx that breaks the
 * document, a store that lists a pet twice.
 */
export const brokenMocks = {
  'accepts any body size': (options: MockOptions): BrokenMock => ({
    app: createApp({ ...options, bodyLimit: Number.MAX_SAFE_INTEGER }),
    store: options.store,
  }),
  'skips authentication': (options: MockOptions): BrokenMock => {
    const mock = createApp(options);
    const app = express();
    app.use((req, res, next) => {
      req.headers.authorization = `Bearer ${options.keys[0]}`;
      mock(req, res, next);
    });
    return { app, store: options.store };
  },
  'merges JSON bodies into a plain object': (options: MockOptions): BrokenMock => {
    const mock = createApp(options);
    const app = express();
    const limit = options.bodyLimit ?? 1024 * 1024;
    app.use((req, res, next) => {
      // Oversize and encoded bodies go straight to the mock, which refuses them: only the merge is broken here.
      if (Number(req.headers['content-length'] ?? 0) > limit || req.headers['content-encoding']) mock(req, res, next);
      else next();
    });
    app.use(express.raw({ type: () => true, limit }), (req, res, next) => {
      try {
        naiveMerge({}, JSON.parse((req.body as Buffer).toString('utf8')));
      } catch {
        // not JSON: nothing to merge
      }
      mock(req, res, next);
    });
    return { app, store: options.store };
  },
  'answers unknown paths with an HTML page': (options: MockOptions): BrokenMock => {
    const mock = createApp(options);
    const app = express();
    app.use((req, res, next) => {
      if (req.path.startsWith('/v1/') || req.path.startsWith('/__admin/')) mock(req, res, next);
      else res.status(404).type('html').send('<h1>Not Found</h1>');
    });
    return { app, store: options.store };
  },
  'crashes on percent-encoded paths': (options: MockOptions): BrokenMock => {
    const mock = createApp(options);
    const app = express();
    app.use((req, res, next) => {
      if (req.path.includes('%')) throw new Error('unexpected percent-encoding');
      mock(req, res, next);
    });
    return { app, store: options.store };
  },
  'never answers DELETE': (options: MockOptions): BrokenMock => {
    const mock = createApp(options);
    const app = express();
    app.use((req, res, next) => {
      if (req.method !== 'DELETE') mock(req, res, next);
    });
    return { app, store: options.store };
  },
  'lists pets without their name': (options: MockOptions): BrokenMock => {
    const mock = createApp(options);
    const app = express();
    app.get('/v1/pets', (req, res) => {
      const pets = options.store.list({ limit: 20 }).map(({ name: _name, ...rest }) => rest);
      res.type('application/json').send(JSON.stringify(pets));
    });
    app.use(mock);
    return { app, store: options.store };
  },
  'lists a pet twice': (options: MockOptions): BrokenMock => {
    const store = new DuplicatingStore();
    return { app: createApp({ ...options, store }), store };
  },
} satisfies Record<string, (options: MockOptions) => BrokenMock>;

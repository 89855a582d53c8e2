/**
 * petstore-kit for Node: the mock in-process (`createMock`, `mock.fetch`),
 * its node:http adapter and server, and the types of the API.
 * Express middleware: `petstore-kit/express`; MSW handlers: `petstore-kit/msw`.
 */
export {
  createNodeMock as createMock,
  type NodeMockOptions as MockOptions,
  type StoreOptions,
  type SharedStoreUrl,
} from './node/create-node-mock.js';
export type { Mock, SharedMock } from './create-mock.js';
export type { AsyncSessionApi, ItemsQuery } from './core/session-api.js';
export type {
  JournalView,
  SessionClock,
  SessionList,
  SessionSummary,
  StateHealth,
  StoreReport,
  StoreView,
} from './core/state/state-store.js';
export { createNodeListener } from './node/node-listener.js';
export { createServer, type ServerLimits } from './node/create-server.js';
export { StateFile } from './persistence/state-file.js';
export * from './public-types.js';
export type { CorsOptions } from './core/pipeline/cors-policy.js';
export type { HostOptions } from './core/pipeline/check-host.js';

/** petstore-kit as MSW 2 request handlers, for `setupServer` in Node and `setupWorker` in a browser. */
export { createMockHandlers, type MockHandlers, type MockHandlersOptions } from './adapters/msw-handlers.js';
export { createMock, type Mock, type MockOptions } from './create-mock.js';
export * from './public-types.js';

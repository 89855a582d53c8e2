/**
 * petstore-kit without Node: the mock in-process from objects (the kit's
 * document and scenarios are built in), for browsers and other runtimes.
 */
export { createMock, type Mock, type MockOptions } from './create-mock.js';
export * from './public-types.js';

/** petstore-kit as Express/connect middleware (Express, Vite dev server, webpack-dev-server). */
export { petstoreMiddleware, type MiddlewareOptions, type PetstoreMiddleware } from './adapters/express-middleware.js';
export * from './public-types.js';

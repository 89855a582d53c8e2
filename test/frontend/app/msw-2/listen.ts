import type { setupServer } from 'msw/node';

/** Starts MSW 2 so that a request no handler answers fails the test: `onUnhandledRequest` in MSW 2. */
export function listen(server: ReturnType<typeof setupServer>): void {
  server.listen({ onUnhandledRequest: 'error' });
}

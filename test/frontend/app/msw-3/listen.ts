import type { setupServer } from 'msw/node';

/** Starts MSW 3 so that a request no handler answers fails the test: `onUnhandledFrame` in MSW 3. */
export function listen(server: ReturnType<typeof setupServer>): void {
  server.listen({ onUnhandledFrame: 'error' });
}

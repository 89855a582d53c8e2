import type { http as HttpNamespace } from 'msw';

/**
 * What the kit's handlers take from MSW: `http`, to make request handlers,
 * and the `Response` class they answer with.
 *
 * msw 2's main entry also loads GraphQL (graphql-js), which costs an import of
 * the kit's handlers more than the rest of the kit; msw 2.3 and later give
 * `http` alone from `msw/core/http`, without it. msw 3 has no such entry and
 * needs none: its main entry leaves GraphQL to `msw/graphql`. So the light
 * entry is tried first and the main one is the fallback: one build for both
 * majors. Where the light entry answers, the handlers answer with the global
 * `Response`, which MSW accepts from a resolver as it does its own
 * `HttpResponse` (a subclass of it); `Response.error()` is a network error to both.
 */
interface MswHttp {
  http: typeof HttpNamespace;
  Response: typeof Response;
}

async function loadMswHttp(): Promise<MswHttp> {
  try {
    const { http } = await import('msw/core/http');
    return { http, Response };
  } catch {
    const { http, HttpResponse } = await import('msw');
    return { http, Response: HttpResponse };
  }
}

export const mswHttp: MswHttp = await loadMswHttp();

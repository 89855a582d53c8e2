// The API reference page (GET / and /docs): swagger-ui, served by the mock itself, pointed at the mock.
// Nothing is fetched from outside: the bundle, its styles and the document all come from the mock.

interface SwaggerUi {
  authActions: { authorize(auth: Record<string, unknown>): void };
}
declare const SwaggerUIBundle: ((options: Record<string, unknown>) => SwaggerUi) & {
  presets: { apis: unknown };
};

interface PageConfig {
  /** The key to fill in, only when the mock accepts nothing but the public `dev-key`. */
  defaultKey: string | null;
}

async function start(): Promise<void> {
  const [document, config] = (await Promise.all([
    fetch('/openapi.json').then((response) => response.json()),
    fetch('/docs/config.json').then((response) => response.json()),
  ])) as [Record<string, unknown>, PageConfig];
  // "Try it out" goes to this mock, not to the placeholder servers of the document.
  document.servers = [{ url: `${location.origin}/v1`, description: 'This mock' }];
  const ui = SwaggerUIBundle({
    spec: document,
    dom_id: '#reference',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    // No call to the online validator, nor anything else outside.
    validatorUrl: null,
    tryItOutEnabled: false,
    persistAuthorization: false,
    defaultModelsExpandDepth: 1,
  });
  if (config.defaultKey) {
    ui.authActions.authorize({
      bearerAuth: {
        name: 'bearerAuth',
        schema: { type: 'http', scheme: 'bearer' },
        value: config.defaultKey,
      },
    });
  }
}

void start();

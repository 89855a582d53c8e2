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

/**
 * The paragraph of `info.description` in which the document says what the
 * source description of the API leaves out. openapi.yaml keeps it (it is the
 * document's honesty about its source), but it speaks about the document, not
 * the API, so the reference does not show it to the API's users.
 */
const editorialNote = /^Not shown by the source description\b/;

/** The description without its editorial note: its paragraphs (blank-line separated) but that one. */
function withoutEditorialNote(description: string): string {
  return description
    .split(/\n[ \t]*\n/)
    .filter((paragraph) => !editorialNote.test(paragraph.trim()))
    .join('\n\n');
}

async function start(): Promise<void> {
  const [document, config] = (await Promise.all([
    fetch('/openapi.json').then((response) => response.json()),
    // Beside the page, wherever it is served (/docs/… or /__admin/docs/…).
    fetch('docs/config.json').then((response) => response.json()),
  ])) as [Record<string, unknown>, PageConfig];
  // "Try it out" goes to this mock, not to the placeholder servers of the document.
  document.servers = [{ url: `${location.origin}/v1`, description: 'This mock' }];
  const info = document.info as { description?: string } | undefined;
  if (typeof info?.description === 'string') info.description = withoutEditorialNote(info.description);
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

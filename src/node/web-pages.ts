import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PublicFile } from '../core/pipeline/serve-public-file.js';
import { packageRoot } from '../package-root.js';

export interface WebPagesOptions {
  /** The key the reference fills in for "Try it out": only the public `dev-key`, never a key of the user's. */
  defaultKey: string | undefined;
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

function file(path: string): PublicFile {
  const extension = path.slice(path.lastIndexOf('.'));
  return { type: types[extension] ?? 'application/octet-stream', body: readFileSync(path) };
}

/**
 * The pages the mock serves, with every asset they load: the API reference
 * (swagger-ui from its npm package, copied into dist/ at build, with "Try it out" pointed at the mock) at
 * `/`, `/docs` and `/__admin/docs`, and the dashboard at `/__admin/ui`. They hold no data, so
 * they are served without a key; every call they make for data needs one.
 * Nothing they load comes from outside the mock.
 */
export function loadWebPages(options: WebPagesOptions): Record<string, PublicFile> {
  const ui = join(packageRoot, 'dist', 'ui');
  const swagger = join(ui, 'swagger-ui');
  const reference = file(join(ui, 'reference.html'));
  const config: PublicFile = {
    type: 'application/json',
    body: new TextEncoder().encode(JSON.stringify({ defaultKey: options.defaultKey ?? null })),
  };
  // The reference's files, under /docs beside the page at / and /docs, and again under /__admin/docs for the
  // Express/Vite middleware, which serves only /__admin (and the document) and leaves / to the app.
  const referenceFiles: Record<string, PublicFile> = {
    'config.json': config,
    'reference.js': file(join(ui, 'reference.js')),
    'swagger-ui.css': file(join(swagger, 'swagger-ui.css')),
    'swagger-ui-bundle.js': file(join(swagger, 'swagger-ui-bundle.js')),
    'swagger-ui-license.txt': file(join(swagger, 'LICENSE.txt')),
  };
  const under = (folder: string) =>
    Object.fromEntries(Object.entries(referenceFiles).map(([name, each]) => [`${folder}/${name}`, each]));
  return {
    '/': reference,
    '/docs': reference,
    ...under('/docs'),
    '/__admin/docs': reference,
    ...under('/__admin/docs'),
    '/favicon.ico': file(join(swagger, 'favicon-32x32.png')),
    '/__admin/ui': file(join(ui, 'dashboard.html')),
    '/__admin/ui/dashboard.js': file(join(ui, 'dashboard.js')),
    '/__admin/ui/dashboard.css': file(join(ui, 'dashboard.css')),
  };
}

// Starts a deployment of the catalogue from the command line, for trying the runners by hand:
//   npx tsx test/contract/support/serve-reference.ts TOKEN [CATALOGUE_ID]
// CATALOGUE_ID is a broken deployment (limit-ignored, ...) or a correct one (ids-64-bit, ...);
// without one, the plain reference implementation.
import { catalogue } from './catalogue.js';
import { startReferenceServer } from './reference-server.js';

const [token = 'dev-key', id = 'plain'] = process.argv.slice(2);
const entry = catalogue[id];
if (!entry) {
  process.stderr.write(`unknown deployment '${id}'; one of: ${Object.keys(catalogue).join(', ')}\n`);
  process.exit(2);
}
const server = await startReferenceServer({ token, ...entry.options });
process.stdout.write(`${server.baseUrl}\n`);

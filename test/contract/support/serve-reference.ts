// Starts the reference deployment from the command line, for trying the runners by hand:
//   npx tsx test/contract/support/serve-reference.ts TOKEN [BREAKAGE]
import { type Breakage, startReferenceServer } from './reference-server.js';

const [token = 'dev-key', breakage] = process.argv.slice(2);
const server = await startReferenceServer({ token, breakage: breakage as Breakage | undefined });
process.stdout.write(`${server.baseUrl}\n`);

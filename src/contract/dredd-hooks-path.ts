import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** The CommonJS hook file Dredd loads (the package is ESM, Dredd only `require`s hooks). */
export const dreddHooksPath = join(packageRoot, 'contracts', 'dredd-hooks.cjs');

import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { frontendApp } from '../support/frontend-app.js';
import { tscIn } from '../support/packed-package.js';

// A frontend team's app and its suite on MSW 3, which needs Node 22.12 or later: on Node 24 (test/support/
// frontend-app.ts). MSW 2's app is app-suite-msw-2.test.ts, a file of its own so that the two run side by side.
const app = frontendApp({ msw: 3, node: 24 });

describe('what differs between msw 2 and 3 for a suite', () => {
  it('MSW 3 refuses MSW 2’s onUnhandledRequest at compile time: it is onUnhandledFrame there', () => {
    const { dir } = app();
    // MSW 2's file alone, under the app's compiler options.
    copyFileSync(join(packageRoot, 'test/frontend/app/msw-2/listen.ts'), join(dir, 'listen-msw-2.ts'));
    writeFileSync(
      join(dir, 'tsconfig.msw-2.json'),
      JSON.stringify({ extends: './tsconfig.json', include: [], files: ['listen-msw-2.ts'] }),
    );
    const report = tscIn(dir, ['-p', 'tsconfig.msw-2.json']);
    expect(report).toContain('listen-msw-2.ts(');
    expect(report).toContain("'onUnhandledRequest' does not exist");
  }, 120_000);
});

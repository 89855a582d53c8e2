import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { frontendApp } from '../support/frontend-app.js';

// A frontend team's app and its suite on MSW 3, which needs Node 22.12 or later: on Node 24 (test/support/
// frontend-app.ts). MSW 2's app is app-suite-msw-2.test.ts, a file of its own so that the two run side by side.
const app = frontendApp(
  { msw: 3, node: 24 },
  // MSW 2's file alone, compiled with the app under its compiler options.
  { 'listen-msw-2.ts': readFileSync(join(packageRoot, 'test/frontend/app/msw-2/listen.ts'), 'utf8') },
);

describe('what differs between msw 2 and 3 for a suite', () => {
  it('MSW 3 refuses MSW 2’s onUnhandledRequest at compile time: it is onUnhandledFrame there', () => {
    const report = (app().errorsByFile().get('listen-msw-2.ts') ?? []).join('\n');
    expect(report).toContain('listen-msw-2.ts(');
    expect(report).toContain("'onUnhandledRequest' does not exist");
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { failures, frontendApp, runSuite } from '../support/frontend-app.js';

// A frontend team's app and its suite on MSW 2 with Node 20 (test/support/frontend-app.ts), and what the suite
// catches. MSW 3's app is app-suite-msw-3.test.ts, a file of its own so that the two run side by side.
const app = frontendApp(
  { msw: 2, node: 20 },
  {
    // Calls the API does not have: a path, a body without its required field, a status outside the enum.
    'src/wrong-call.ts': [
      "import { createPetClient } from './pet-client.js';",
      "const client = createPetClient('https://api.example.test/v1', 'dev-key');",
      "export const wrongPath = client.GET('/animals');",
      "export const wrongBody = client.POST('/pets', { body: { name: 'Rex' } });",
      "export const wrongQuery = client.GET('/pets', { params: { query: { status: 'lost' } } });",
      '',
    ].join('\n'),
  },
);

describe('the app’s suite as a check', () => {
  it('would catch a suite that does not reset the mock: tests then see each other’s pets and faults', () => {
    // Run several times shuffled: in some order a test that changes the mock comes before one that reads it.
    const seen = new Set<string>();
    for (let run = 0; run < 3 && seen.size === 0; run++) {
      for (const failed of failures(runSuite(app(), 'happy-dom', { SKIP_RESET: '1' }).report)) seen.add(failed);
    }
    expect([...seen].length).toBeGreaterThan(0);
  }, 120_000);

  it('would catch a call the API does not have: the client is typed by the kit’s paths', () => {
    // Compiled with the app, under its own compiler options (frontendApp's one strict compile).
    const errors = (app().errorsByFile().get('src/wrong-call.ts') ?? []).join('\n');
    expect(errors).toContain('src/wrong-call.ts(3,');
    expect(errors).toContain('src/wrong-call.ts(4,');
    expect(errors).toContain('src/wrong-call.ts(5,');
  }, 120_000);
});

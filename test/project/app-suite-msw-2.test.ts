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
  it('would catch a suite that does not reset the mock: tests then see each other’s pets and scenario', () => {
    // Without the reset, in the suite's own order: a test that creates a pet, then one that lists the scenario's
    // three; a test that switches the scenario and sends requests, then one that expects the start. The same
    // tests pass in any order with it (the shuffled runs above).
    const { results, output } = runSuite(app(), { project: 'happy-dom', env: { SKIP_RESET: '1' }, shuffle: false });
    const failed = failures(results.projects['happy-dom']);
    expect(
      failed.filter((test) => test.startsWith('shows the pets in the component:')),
      output,
    ).toHaveLength(1);
    expect(
      failed.filter((test) => test.startsWith('starts from the scenario, whatever ran before')),
      output,
    ).toHaveLength(1);
  }, 120_000);

  it('would catch a call the API does not have: the client is typed by the kit’s paths', () => {
    // Compiled with the app, under its own compiler options (frontendApp's one strict compile).
    const errors = (app().errorsByFile().get('src/wrong-call.ts') ?? []).join('\n');
    expect(errors).toContain('src/wrong-call.ts(3,');
    expect(errors).toContain('src/wrong-call.ts(4,');
    expect(errors).toContain('src/wrong-call.ts(5,');
  }, 120_000);
});

// The page the strict-CSP test opens under `script-src 'self'` (no 'unsafe-eval'): it first shows that the policy
// forbids eval, then mocks the kit's own document (validators built in) and a document of its own (validators
// precompiled by `petstore-kit precompile`) with the kit's MSW handlers, and writes what it saw for the test.
import { setupWorker } from 'msw/browser';
import { createMockHandlers } from '../../../src/msw.js';
import { runTimeCompiler } from '../../../src/run-time-compiler.js';
// What `npx petstore-kit precompile with-replace-and-delete.yaml --out validators.js` writes: no YAML parser needed.
import ownValidators, { document as ownDocument } from 'virtual:own-validators';

const output = document.getElementById('output') as HTMLElement;
const show = (label: string, value: unknown) => {
  const line = document.createElement('li');
  line.dataset.step = label;
  line.textContent = JSON.stringify(value);
  output.append(line);
};
// The policy's reports arrive as events after the refusal: counted, so the page can wait for the ones it caused.
const violations: string[] = [];
let onViolation = () => undefined as void;
document.addEventListener('securitypolicyviolation', (event) => {
  violations.push(`${event.violatedDirective} ${event.blockedURI}`);
  onViolation();
});
const violationsReach = (count: number) =>
  new Promise<void>((resolve) => {
    onViolation = () => {
      if (violations.length >= count) resolve();
    };
    onViolation();
  });
const failure = (error: unknown) => `${(error as Error).name}: ${(error as Error).message}`;

// The policy holds: evaluating a string is refused.
try {
  show('eval', new Function('return "evaluated"')());
} catch (error) {
  show('eval', (error as Error).name);
}
// A document of your own without its validators: the kit says what to do rather than trying eval (before the
// run-time compiler below is given: the page's mocks use it from then on).
try {
  createMockHandlers({ baseUrl: '/never/v1', document: ownDocument, kitFixtures: false });
  show('own-without-validators', 'created');
} catch (error) {
  show('own-without-validators', failure(error));
}
// Compiling at run time is refused with it: what the kit would meet if it compiled its validators here.
try {
  createMockHandlers({ baseUrl: '/never/v1', document: ownDocument, validators: runTimeCompiler, kitFixtures: false });
  show('run-time-compile', 'compiled');
} catch (error) {
  show('run-time-compile', failure(error));
}
// The two refusals above, and no more, once their reports have arrived.
await violationsReach(2);
show('deliberate-violations', violations.slice());
const violationsBefore = violations.length;

const handlers = [];
try {
  handlers.push(...createMockHandlers({ baseUrl: '/v1', keys: ['browser-key'] }));
  show('kit-handlers', 'created');
} catch (error) {
  show('kit-handlers', failure(error));
}
try {
  handlers.push(
    ...createMockHandlers({
      baseUrl: '/own/v1',
      keys: ['browser-key'],
      document: ownDocument,
      validators: ownValidators,
      kitFixtures: false,
      scenario: {
        name: 'two',
        fixture: {
          description: 'two pets, checked by the precompiled validators',
          pets: [
            { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
            { id: 9007199254740993n, name: 'Luna', categoryId: 2 },
          ],
        },
      },
    }),
  );
  show('own-handlers', 'created');
} catch (error) {
  show('own-handlers', failure(error));
}
const worker = setupWorker(...handlers);
await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'error', quiet: true });

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(path, init);
  return { status: response.status, body: await response.text() };
}
const auth = { Authorization: 'Bearer browser-key' };
const json = { ...auth, 'Content-Type': 'application/json' };
show('kit-list', await call('/v1/pets?limit=2', { headers: auth }));
show('kit-create', await call('/v1/pets', { method: 'POST', headers: json, body: '{"name":"Zoë","categoryId":3}' }));
show('kit-invalid', await call('/v1/pets', { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":"x"}' }));
show('kit-beyond-int64', await call('/v1/pets/9223372036854775808', { headers: auth }));
show('kit-unauthorized', await call('/v1/pets'));
show(
  'kit-clock',
  await call('/__admin/clock', { method: 'PUT', headers: json, body: '{"now":"2030-12-06T10:00:00Z"}' }),
);
show('kit-clock-invalid', await call('/__admin/clock', { method: 'PUT', headers: json, body: '{"now":"yesterday"}' }));
show('own-list', await call('/own/v1/pets', { headers: auth }));
show(
  'own-replace',
  await call('/own/v1/pets/9007199254740993', {
    method: 'PUT',
    headers: json,
    body: '{"name":"Luna","categoryId":9007199254740995,"status":"sold"}',
  }),
);
show('own-invalid', await call('/own/v1/pets/1', { method: 'PUT', headers: json, body: '{"name":"Rex"}' }));
show('own-delete', await call('/own/v1/pets/1', { method: 'DELETE', headers: auth }));
show('violations', violations.slice(violationsBefore));
document.body.dataset.done = 'true';

import type { Breakage } from './reference-server.js';

export interface CatalogueEntry {
  /** What the vitest contract suite must say about it (the run must also exit 1). */
  message: RegExp;
  /** Whether Dredd, with our hooks, fails on it. `false` documents a gap of Dredd's (see contracts/README.md). */
  dreddFails: boolean;
}

/** Every broken deployment, what the suite must report for it, and whether Dredd catches it. */
export const catalogue: Record<Exclude<Breakage, 'no-deprecation-headers'>, CatalogueEntry> = {
  'missing-key-accepted': {
    message: /auth hole: listPets without an Authorization header answered 200/,
    dreddFails: true,
  },
  'unknown-key-accepted': { message: /auth hole: getPet with an unknown key answered 200/, dreddFails: false },
  'wrong-scheme-accepted': {
    message: /auth hole: createPet with the key under a wrong scheme \(Basic\) answered 201/,
    dreddFails: false,
  },
  'auth-after-validation': {
    message: /auth skipped for invalid input: createPet without a key and with malformed JSON body answered 400/,
    dreddFails: false,
  },
  'malformed-401-body': {
    message: /→ 401: the 401 body does not match the documented schema: response field 'code' is required/,
    dreddFails: true,
  },
  'error-status-mismatch': {
    message: /the Error body says status 400 but the HTTP status is 404/,
    dreddFails: true,
  },
  'html-404': { message: /→ 404: Content-Type is 'text\/html', not JSON/, dreddFails: true },
  'text-plain-success': { message: /→ 200: Content-Type is 'text\/plain', not JSON/, dreddFails: true },
  'limit-ignored': { message: /limit ignored: listPets\?limit=1 returned \d+ pets/, dreddFails: false },
  'default-page-50': {
    message: /default page too large: listPets without limit returned \d+ pets, more than the default 20/,
    dreddFails: false,
  },
  'status-filter-ignored': {
    message: /status filter ignored: listPets\?status=available returned \d+ pet\(s\) with another status/,
    dreddFails: false,
  },
  'invalid-pet-in-list': {
    message: /the 200 body does not match the documented schema: response field '\[0\]\.categoryId' must be integer/,
    dreddFails: true,
  },
  'duplicate-ids': { message: /duplicate ids: the default page listed ids 1 more than once/, dreddFails: false },
  'create-returns-200': { message: /createPet with a valid body answered 200, expected 201/, dreddFails: true },
  'create-echo-wrong': {
    message: /wrong echo: the created Pet differs from what was sent: 'status': sent "sold", got "available"/,
    dreddFails: false,
  },
  'lost-writes': { message: /lost write: pet \d+ was created, but getPet answered 404/, dreddFails: false },
  'create-accepts-invalid': {
    message:
      /invalid body accepted: createPet answered other than 400 to \d+ of \d+ bodies that break one documented rule each/,
    dreddFails: true,
  },
  'lenient-types': { message: /invalid body accepted: .*'categoryId' as a numeric string → 201/, dreddFails: false },
  'malformed-json-500': { message: /malformed JSON accepted: createPet answered 500, expected 400/, dreddFails: false },
  'unknown-id-200': { message: /200 for unknown ids: getPet answered 200 for every id tried/, dreddFails: true },
  'unknown-id-410': {
    message: /status 410 is not documented for getPet \(documented: 200, 401, 404\)/,
    dreddFails: true,
  },
  'get-wrong-pet': { message: /wrong pet: getPet \d+ differs from the listed pet/, dreddFails: false },
};

import { type Breakage, breakages, type ReferenceOptions } from './reference-server.js';

/** A deployment of the reference implementation: broken in one way, or correct but different from the plain one. */
export interface CatalogueEntry {
  kind: 'broken' | 'correct';
  /** What the deployment does, as the end of the sentence "when the deployment …". */
  what: string;
  options: Omit<ReferenceOptions, 'token'>;
  /** Run the runners with --read-only. */
  readOnly?: boolean;
  /**
   * Broken: what the contract suite must say about it (the run must exit 1).
   * Correct: a line the passing run must also print, if any (a warning, a proof it could not make).
   */
  message?: RegExp;
  /** Whether Dredd, with our hooks, fails on it (a correct deployment must pass). */
  dredd: 'fails' | 'passes';
}

function broken(breakage: Breakage, message: RegExp, dredd: CatalogueEntry['dredd']): CatalogueEntry {
  return { kind: 'broken', what: breakages[breakage], options: { breakage }, message, dredd };
}

/** Every broken deployment, what the suite must report for it, and whether Dredd catches it. */
export const brokenDeployments: Record<Breakage, CatalogueEntry> = {
  'missing-key-accepted': broken(
    'missing-key-accepted',
    /auth hole: listPets without an Authorization header answered 200/,
    'fails',
  ),
  'unknown-key-accepted': broken(
    'unknown-key-accepted',
    /auth hole: getPet with an unknown key answered 200/,
    'passes',
  ),
  'wrong-scheme-accepted': broken(
    'wrong-scheme-accepted',
    /auth hole: createPet with the key under a wrong scheme \(Basic\) answered 201/,
    'passes',
  ),
  'key-case-insensitive': broken(
    'key-case-insensitive',
    /auth hole: listPets with the key in another letter case answered 200/,
    'passes',
  ),
  'key-prefix-accepted': broken(
    'key-prefix-accepted',
    /auth hole: getPet with the key and one character appended answered 200/,
    'passes',
  ),
  'key-truncation-accepted': broken(
    'key-truncation-accepted',
    /auth hole: createPet with the key without its last character answered 201/,
    'passes',
  ),
  'key-first-8-chars': broken(
    'key-first-8-chars',
    /auth hole: listPets with a key that shares only its first half with the valid key answered 200/,
    'passes',
  ),
  'auth-cache-leak': broken(
    'auth-cache-leak',
    /auth hole: getPet without an Authorization header after a request with the valid key answered 200/,
    'fails',
  ),
  'auth-after-validation': broken(
    'auth-after-validation',
    /auth skipped for invalid input: createPet without a key and with malformed JSON body answered 400/,
    'passes',
  ),
  'malformed-401-body': broken(
    'malformed-401-body',
    /→ 401: the 401 body does not match the documented schema: response field 'code' is required/,
    'fails',
  ),
  'text-401-echoing-key': broken(
    'text-401-echoing-key',
    /→ 401: Content-Type is 'text\/plain', not JSON \(body starts: "no access for Basic \[REDACTED\]"\)/,
    'fails',
  ),
  'error-status-mismatch': broken(
    'error-status-mismatch',
    /the Error body says status 400 but the HTTP status is 404/,
    'fails',
  ),
  'html-404': broken('html-404', /→ 404: Content-Type is 'text\/html', not JSON/, 'fails'),
  'text-plain-success': broken('text-plain-success', /→ 200: Content-Type is 'text\/plain', not JSON/, 'fails'),
  'limit-ignored': broken('limit-ignored', /limit ignored: listPets\?limit=1 returned \d+ pets/, 'passes'),
  'default-page-50': broken(
    'default-page-50',
    /default page too large: listPets without limit returned \d+ pets, more than the default 20/,
    'passes',
  ),
  'status-filter-ignored': broken(
    'status-filter-ignored',
    /status filter ignored: listPets\?status=available returned \d+ pet\(s\) with another status/,
    'passes',
  ),
  'unfiltered-hides-sold': broken(
    'unfiltered-hides-sold',
    /unfiltered list hides pets: listPets\?limit=100 holds \d+ pets \(all there are\), yet leaves out \d+ pets that status-filtered lists show \(status sold/,
    'passes',
  ),
  'invalid-pet-in-list': broken(
    'invalid-pet-in-list',
    /the 200 body does not match the documented schema: response field '\[0\]\.categoryId' must be integer/,
    'fails',
  ),
  'duplicate-ids': broken('duplicate-ids', /duplicate ids: the default page listed ids 1 more than once/, 'passes'),
  'create-returns-200': broken('create-returns-200', /createPet with a valid body answered 200, expected 201/, 'fails'),
  'create-echo-wrong': broken(
    'create-echo-wrong',
    /wrong echo: the created Pet differs from what was sent: 'status': sent "sold", got "available"/,
    'passes',
  ),
  'lost-writes': broken('lost-writes', /lost write: pet \d+ was created, but getPet answered 404/, 'passes'),
  'create-accepts-invalid': broken(
    'create-accepts-invalid',
    /invalid body accepted: createPet answered other than 400 to \d+ of \d+ bodies that break one documented rule each/,
    'fails',
  ),
  'lenient-types': broken('lenient-types', /invalid body accepted: .*'categoryId' as a numeric string → 201/, 'passes'),
  'malformed-json-500': broken(
    'malformed-json-500',
    /malformed JSON accepted: createPet answered 500, expected 400/,
    'passes',
  ),
  'category-id-as-double': broken(
    'category-id-as-double',
    /boundary value mishandled: .*'categoryId' 9007199254740993 → wrong echo: 'categoryId': sent 9007199254740993, got 9007199254740992/,
    'passes',
  ),
  'category-id-int32': broken(
    'category-id-int32',
    /boundary value mishandled: .*'categoryId' 2147483648 → wrong echo: 'categoryId': sent 2147483648, got -2147483648/,
    'passes',
  ),
  'int64-range-unchecked': broken(
    'int64-range-unchecked',
    /invalid body accepted: createPet answered other than 400 to 2 of 2 values of 'categoryId' outside its range: 'categoryId' -9223372036854775809 → 201/,
    'passes',
  ),
  'decimal-integers-accepted': broken(
    'decimal-integers-accepted',
    /invalid body accepted: createPet answered other than 400 to 6 of 6 bodies with 'categoryId' as a decimal literal: 'categoryId' written 1\.0 → 201/,
    'passes',
  ),
  'decimal-integers-written': broken(
    'decimal-integers-written',
    /response field '\[0\]\.categoryId' must be integer \(\d+\.0 is written as a decimal\)/,
    'fails',
  ),
  'non-ascii-500': broken(
    'non-ascii-500',
    /text mishandled: createPet failed 5 of 8 kinds of text in 'name': accented Latin → 500/,
    'passes',
  ),
  'name-truncated-255': broken(
    'name-truncated-255',
    /text mishandled: createPet failed 1 of 8 kinds of text in 'name': 10 KB of text → wrong echo: 'name'/,
    'passes',
  ),
  'name-nfc-normalised': broken(
    'name-nfc-normalised',
    /text mishandled: createPet failed 1 of 8 kinds of text in 'name': combining marks \(not to be normalised\) → wrong echo: 'name': sent "contract-test-[0-9a-f]{6}-Zoe\\u0308 Cafe\\u0301 n\\u0303", got "contract-test-[0-9a-f]{6}-Zoë Café ñ"/,
    'passes',
  ),
  'name-unescaped-twice': broken(
    'name-unescaped-twice',
    /text mishandled: createPet failed 1 of 8 kinds of text in 'name': quotes and backslashes → wrong echo/,
    'passes',
  ),
  'empty-name-refused': broken(
    'empty-name-refused',
    /text mishandled: createPet failed 1 of 8 kinds of text in 'name': the empty string → 400/,
    'passes',
  ),
  'enum-case-insensitive': broken(
    'enum-case-insensitive',
    /invalid body accepted: createPet answered other than 400 to \d+ of \d+ near misses of 'status' values: 'status' "AVAILABLE" \('available' in upper case\) → 201/,
    'passes',
  ),
  'enum-trimmed': broken(
    'enum-trimmed',
    /invalid body accepted: createPet answered other than 400 to \d+ of \d+ near misses of 'status' values: 'status' "available " \('available' with a trailing space\) → 201/,
    'passes',
  ),
  'unknown-id-200': broken('unknown-id-200', /200 for unknown ids: getPet answered 200 for every id tried/, 'fails'),
  'unknown-id-410': broken(
    'unknown-id-410',
    /status 410 is not documented for getPet \(documented: 200, 401, 404\)/,
    'fails',
  ),
  'get-wrong-pet': broken('get-wrong-pet', /wrong pet: getPet \d+ differs from the listed pet/, 'fails'),
  'pet-id-int32-500': broken(
    'pet-id-int32-500',
    /petId boundary mishandled: getPet answered neither 404 nor that pet for 6 valid int64 ids: -9223372036854775808 → 500/,
    'passes',
  ),
  'pet-id-unsafe-400': broken(
    'pet-id-unsafe-400',
    /petId boundary mishandled: getPet answered neither 404 nor that pet for 3 valid int64 ids: -9223372036854775808 → 400; 9007199254740993 → 400; 9223372036854775807 → 400/,
    'passes',
  ),
};

/** Ids far above 2^53 (snowflake-style), as many Java or Go services hand out. */
const snowflakeIds = { firstId: 1_234_567_890_123_456_789n };

/** Deployments that differ from the plain one in ways the document allows: both runners must pass them. */
export const correctDeployments: Record<string, CatalogueEntry> = {
  plain: { kind: 'correct', what: 'is the plain reference implementation', options: {}, dredd: 'passes' },
  'ids-64-bit': {
    kind: 'correct',
    what: 'hands out ids above 2^53 only',
    options: snowflakeIds,
    message: /Created pets \(name prefix 'contract-test-[0-9a-f]{6}-'\): 12345678901234568\d\d/,
    dredd: 'passes',
  },
  'ids-64-bit-read-only': {
    kind: 'correct',
    what: 'hands out ids above 2^53 only, checked read-only',
    options: snowflakeIds,
    readOnly: true,
    dredd: 'passes',
  },
  'charset-utf-8': {
    kind: 'correct',
    what: 'sends application/json; charset=utf-8',
    options: { charset: true },
    dredd: 'passes',
  },
  gzip: { kind: 'correct', what: 'compresses its answers with gzip', options: { gzip: true }, dredd: 'passes' },
  'extra-fields': {
    kind: 'correct',
    what: 'adds fields of its own to every Pet and Error',
    options: { extraFields: true },
    dredd: 'passes',
  },
  'no-deprecation-headers': {
    kind: 'correct',
    what: 'sends no Deprecation or Sunset header (a warning, not a failure)',
    options: { deprecationHeaders: false },
    message:
      /Warnings \(not failures\):\n\s+getPet: getPet is deprecated in openapi\.yaml, but the response carries neither a Deprecation nor a Sunset header/,
    dredd: 'passes',
  },
  'deeper-base-path': {
    kind: 'correct',
    what: 'serves the API under /api/pet-store/v1',
    options: { basePath: '/api/pet-store/v1' },
    dredd: 'passes',
  },
  'slow-answers': {
    kind: 'correct',
    what: 'takes 1.5 s to its first answer and 300 ms to every 25th',
    options: { delay: { firstMs: 1500, everyNth: 25, nthMs: 300, otherMs: 1 } },
    dredd: 'passes',
  },
  'page-cap-50': {
    kind: 'correct',
    what: 'never returns more than 50 pets in a page (it holds 200)',
    options: { pets: 200, pageCap: 50 },
    message: /createPet: created pet \d+ is not on the largest page of status=sold \(50 pets\)/,
    dredd: 'passes',
  },
  'newest-first': {
    kind: 'correct',
    what: 'lists the newest pets first',
    options: { newestFirst: true },
    dredd: 'passes',
  },
};

export const catalogue: Record<string, CatalogueEntry> = { ...brokenDeployments, ...correctDeployments };

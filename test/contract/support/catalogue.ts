import { type Breakage, breakages, type ReferenceOptions } from './reference-server.js';

/** A deployment of the reference implementation: broken in one way, or correct but different from the plain one. */
export interface CatalogueEntry {
  kind: 'broken' | 'correct';
  /** What the deployment does, as the end of the sentence "when the deployment …". */
  what: string;
  options: Omit<ReferenceOptions, 'token'>;
  /** Run the runners with --read-only. */
  readOnly?: boolean;
  /** Keys the suite also runs with, through the same proxy at the same time (a deployment with a store per key). */
  otherKeys?: readonly string[];
  /**
   * Broken: what the contract suite must say about it (the run must exit 1).
   * Correct: a line the passing run must also print, if any (a warning, a proof it could not make).
   */
  message?: RegExp;
  /** Whether Dredd, with our hooks, fails on it (a correct deployment must pass). */
  dredd: 'fails' | 'passes';
  /** Broken: whether the proxy, seeing the contract suite's traffic, can show it (default: it fails it). */
  proxy?: 'fails' | 'passes';
  /**
   * Broken: what finds the fault, as `message` names it. A check of the suite (the default): the suite runs
   * without its stateful exploration (`--budget 0`), which would only spend requests on a deployment already
   * failed. The exploration: the suite runs with its whole budget, as users run it.
   */
  foundBy?: 'a check' | 'the exploration';
  /**
   * The suite must also run against the deployment with no proxy in between, and its checks read that run:
   * what it must see is in bytes a proxy does not pass on as they came (the framing of a response).
   */
  direct?: true;
  /**
   * The settle window the suite and its proxy judge this deployment with, when not the catalogue's
   * (`catalogueSettleMs`); the entry's comment says why.
   */
  settleMs?: number;
}

/** The second key of `tenant-per-key`: the catalogue runs the suite with it too, through the same proxy. */
export const tenantKey = 'catalogue-tenant-b-7d2e90';

/** The settle window the catalogue is checked with: above the read lag of the lagging deployment. */
export const catalogueSettleMs = 1500;

/** The settle window the suite and its proxy judge a deployment with: its own, or the catalogue's. */
export function settleMsOf(entry: CatalogueEntry): number {
  return entry.settleMs ?? catalogueSettleMs;
}

/**
 * A broken deployment: what the suite must say about it, whether Dredd (with our hooks) fails it, and,
 * when the proxy cannot see it in the suite's traffic, why (it knows no keys, no completeness).
 */
function broken(
  breakage: Breakage,
  message: RegExp,
  dredd: CatalogueEntry['dredd'],
  proxyGap?: 'proxy cannot know',
): CatalogueEntry {
  return {
    kind: 'broken',
    what: breakages[breakage],
    options: { breakage },
    message,
    dredd,
    ...(proxyGap ? { proxy: 'passes' as const } : {}),
  };
}

/**
 * What the suite says of a deployment that forgets pets it created (`evicted-*`): the exploration, reading again
 * a pet a check created, got 404, and printed that check's create first.
 */
const forgottenFoundByTheExploration =
  /✗ exploration › [^\n]*\n\s+\[fail\] write-kept: GET \/pets\/\d+ → 404: getPet \d+ answered 404 \d+ ms after the pet was created with that id\n(.*\n)*\s+curl -X POST [^\n]*# → 201, id \d+ \(earlier in the run: createPet › /;

/** Every broken deployment, what the suite must report for it, and whether Dredd catches it. */
export const brokenDeployments: Record<
  Exclude<Breakage, 'empty-name-refused' | 'status-echoed-not-stored' | 'name-nfc-normalised'>,
  CatalogueEntry
> = {
  'missing-key-accepted': broken(
    'missing-key-accepted',
    /\[fail\] auth-required: GET \/pets\?limit=7 → 200: listPets without an Authorization header answered 200, expected 401/,
    'fails',
  ),
  'unknown-key-accepted': broken(
    'unknown-key-accepted',
    /✗ getPet › authentication › answers 401 with an Error with an unknown key[^\n]*\n\s+\[fail\] auth-required: GET \/pets\/\d+ → 200: getPet with a key that is not valid answered 200, expected 401/,
    'passes',
    'proxy cannot know',
  ),
  'wrong-scheme-accepted': broken(
    'wrong-scheme-accepted',
    /✗ createPet › authentication › answers 401 with an Error with the key under a wrong scheme \(Basic\)[^\n]*\n\s+\[fail\] auth-required: POST \/pets → 201: createPet with an Authorization header that is not a bearer credential answered 201/,
    'passes',
  ),
  'key-case-insensitive': broken(
    'key-case-insensitive',
    /✗ listPets › authentication › answers 401 with an Error with the key in another letter case[^\n]*\n\s+\[fail\] auth-required: [^\n]*answered 200, expected 401/,
    'passes',
    'proxy cannot know',
  ),
  'key-prefix-accepted': broken(
    'key-prefix-accepted',
    /✗ getPet › authentication › answers 401 with an Error with the key and one character appended[^\n]*\n\s+\[fail\] auth-required: [^\n]*answered 200, expected 401/,
    'passes',
    'proxy cannot know',
  ),
  'key-truncation-accepted': broken(
    'key-truncation-accepted',
    /✗ createPet › authentication › answers 401 with an Error with the key without its last character[^\n]*\n\s+\[fail\] auth-required: [^\n]*answered 201, expected 401/,
    'passes',
    'proxy cannot know',
  ),
  'key-first-8-chars': broken(
    'key-first-8-chars',
    /✗ listPets › authentication › answers 401 with an Error with a key that shares only its first half with the valid key[^\n]*\n\s+\[fail\] auth-required/,
    'passes',
    'proxy cannot know',
  ),
  'auth-cache-leak': broken(
    'auth-cache-leak',
    /✗ getPet › authentication › after a request with the valid key › answers 401 with an Error without an Authorization header[^\n]*\n\s+\[fail\] auth-required: GET \/pets\/\d+ → 200: getPet without an Authorization header answered 200, expected 401/,
    'fails',
  ),
  'auth-after-validation': broken(
    'auth-after-validation',
    /\[fail\] auth-required: POST \/pets → 400: createPet without an Authorization header answered 400, expected 401/,
    'passes',
  ),
  'malformed-401-body': broken(
    'malformed-401-body',
    /\[fail\] schema: [^\n]*→ 401: the 401 body does not match the documented schema: response field 'code' is required/,
    'fails',
  ),
  'text-401-echoing-key': broken(
    'text-401-echoing-key',
    /\[fail\] media-type: [^\n]*→ 401: Content-Type is 'text\/plain', not JSON \(body starts: "no access for Basic \[redacted\]"\)/,
    'fails',
  ),
  'error-status-mismatch': broken(
    'error-status-mismatch',
    /\[fail\] error-status: [^\n]*the Error body says status 400 but the HTTP status is 404/,
    'fails',
  ),
  'html-404': broken(
    'html-404',
    /\[fail\] media-type: GET \/pets\/\d+ → 404: Content-Type is 'text\/html', not JSON/,
    'fails',
  ),
  'text-plain-success': broken(
    'text-plain-success',
    /\[fail\] media-type: GET \/pets → 200: Content-Type is 'text\/plain', not JSON/,
    'fails',
  ),
  'limit-ignored': broken(
    'limit-ignored',
    /\[fail\] page-within-limit: GET \/pets\?limit=1 → 200: listPets returned \d+ items for limit=1/,
    'passes',
  ),
  'default-page-50': broken(
    'default-page-50',
    /\[fail\] page-within-limit: GET \/pets → 200: listPets returned 30 items for limit=20 \(the default\)/,
    'passes',
  ),
  'status-filter-ignored': broken(
    'status-filter-ignored',
    /\[fail\] status-filter: GET \/pets\?status=available&limit=100 → 200: listPets\?status=available returned \d+ item\(s\) with another status/,
    'fails',
  ),
  'unfiltered-hides-sold': broken(
    'unfiltered-hides-sold',
    /\[fail\] filter-complete: unfiltered list hides pets: listPets\?limit=100 holds \d+ pets \(all there are\), yet leaves out \d+ pets that status-filtered lists show \(status sold/,
    'passes',
    'proxy cannot know',
  ),
  'invalid-pet-in-list': broken(
    'invalid-pet-in-list',
    /\[fail\] schema: GET \/pets → 200: the 200 body does not match the documented schema: response field '\[0\]\.categoryId' must be integer/,
    'fails',
  ),
  'duplicate-ids': broken(
    'duplicate-ids',
    /\[fail\] unique-ids: GET \/pets → 200: listPets listed ids 1 more than once/,
    'fails',
  ),
  'create-returns-200': broken(
    'create-returns-200',
    /\[fail\] documented-status: POST \/pets → 200: createPet answered 200 to a valid request; documented: 201, 400, 401/,
    'fails',
  ),
  'create-echo-wrong': broken(
    'create-echo-wrong',
    /\[fail\] created-echo: POST \/pets → 201: the created item differs from what was sent: 'status': sent "sold", got "available"/,
    'passes',
  ),
  'lost-writes': broken(
    'lost-writes',
    /\[fail\] write-kept: GET \/pets\/\d+ → 404: getPet \d+ answered 404 \d+ ms after the pet was created with that id/,
    'passes',
  ),
  'create-accepts-invalid': broken(
    'create-accepts-invalid',
    /\[fail\] invalid-input-refused: POST \/pets → 201: createPet answered 201 where the document names 400: body field 'name' is required/,
    'fails',
  ),
  'lenient-types': broken(
    'lenient-types',
    /\[fail\] invalid-input-refused: POST \/pets → 201: createPet answered 201 where the document names 400: body field 'categoryId' must be integer/,
    'passes',
  ),
  'malformed-json-500': broken(
    'malformed-json-500',
    /\[fail\] invalid-input-refused: POST \/pets → 500: createPet answered 500 \(code invalid_json\) where the document names 400: the body is not valid JSON/,
    'passes',
  ),
  'category-id-as-double': broken(
    'category-id-as-double',
    /\[fail\] created-echo: POST \/pets → 201: [^\n]*'categoryId': sent 9007199254740993, got 9007199254740992/,
    'passes',
  ),
  'category-id-int32': broken(
    'category-id-int32',
    /\[fail\] created-echo: POST \/pets → 201: [^\n]*'categoryId': sent 2147483648, got -2147483648/,
    'passes',
  ),
  'int64-range-unchecked': broken(
    'int64-range-unchecked',
    /\[fail\] schema: POST \/pets → 201: the 201 body does not match the documented schema: response field 'categoryId' must be an int64/,
    'passes',
  ),
  'decimal-integers-accepted': broken(
    'decimal-integers-accepted',
    /\[fail\] created-echo: POST \/pets → 201: [^\n]*'categoryId': sent 9007199254740993, got 9007199254740992/,
    'passes',
  ),
  'decimal-integers-written': broken(
    'decimal-integers-written',
    /\[fail\] schema: [^\n]*response field '\[0\]\.categoryId' must be integer \(\d+\.0 is written as a decimal\)/,
    'fails',
  ),
  'non-ascii-500': broken(
    'non-ascii-500',
    /\[fail\] documented-status: POST \/pets → 500: createPet answered 500 \(code internal_error\) to a valid request/,
    'passes',
  ),
  'name-truncated-255': broken(
    'name-truncated-255',
    /\[fail\] created-echo: POST \/pets → 201: the created item differs from what was sent: 'name': sent … pet name [^\n]*\(10242 characters\), got … pet name [^\n]*\(\d+ characters\)/,
    'passes',
  ),
  'name-unescaped-twice': broken(
    'name-unescaped-twice',
    /\[fail\] created-echo: POST \/pets → 201: [^\n]*'name': sent …[^\n]*\\\\u0041[^\n]*\(88 characters\), got …[^\n]*escaped[^\n]* A C:/,
    'passes',
  ),
  'enum-case-insensitive': broken(
    'enum-case-insensitive',
    /\[fail\] invalid-input-refused: POST \/pets → 201: createPet answered 201 where the document names 400: body field 'status' must be one of/,
    'passes',
  ),
  'enum-trimmed': broken(
    'enum-trimmed',
    /\[fail\] invalid-input-refused: POST \/pets → 201: createPet answered 201 where the document names 400: body field 'status' must be one of/,
    'passes',
  ),
  'unknown-id-200': broken(
    'unknown-id-200',
    /\[fail\] unknown-item-404: 200 for unknown ids: getPet answered 200 for every id tried/,
    'fails',
    'proxy cannot know',
  ),
  'unknown-id-410': broken(
    'unknown-id-410',
    /\[fail\] documented-status: GET \/pets\/\d+ → 410: getPet answered 410 \(code gone\) to a valid request; documented: 200, 401, 404/,
    'fails',
  ),
  'get-wrong-pet': broken(
    'get-wrong-pet',
    /\[fail\] requested-item: GET \/pets\/1 → 200: getPet 1 answered the item whose id is 2/,
    'fails',
  ),
  'pet-id-int32-500': broken(
    'pet-id-int32-500',
    /\[fail\] documented-status: GET \/pets\/-9223372036854775808 → 500: getPet answered 500 \(code internal_error\) to a valid request/,
    'passes',
  ),
  'pet-id-unsafe-400': broken(
    'pet-id-unsafe-400',
    /\[fail\] documented-status: GET \/pets\/-9223372036854775808 → 400: getPet answered 400 \(code invalid_parameter\) to a valid request/,
    'passes',
  ),
  'status-null-echo': broken(
    'status-null-echo',
    /\[fail\] schema: POST \/pets → 201: the 201 body does not match the documented schema: response field 'status' must be string/,
    'passes',
  ),
  'name-trimmed': broken(
    'name-trimmed',
    /\[fail\] created-echo: POST \/pets → 201: the created item differs from what was sent: 'name': sent " {2}contract-test-[0-9a-f]{6}-spaced \\t ", got "contract-test-[0-9a-f]{6}-spaced"/,
    'passes',
  ),
  'bearer-scheme-case-sensitive': broken(
    'bearer-scheme-case-sensitive',
    /\[fail\] auth-scheme-case: GET \/pets\?limit=7 → 401: listPets answered 401 to the valid key with the scheme written 'bearer'/,
    'passes',
    'proxy cannot know',
  ),
  'filtered-limit-ignored': broken(
    'filtered-limit-ignored',
    /\[fail\] page-within-limit: GET \/pets\?status=available&limit=1 → 200: listPets returned 10 items for limit=1/,
    'passes',
  ),
  'empty-filter-returns-all': broken(
    'empty-filter-returns-all',
    /\[fail\] status-filter: GET \/pets\?status=sold&limit=100 → 200: listPets\?status=sold returned \d+ item\(s\) with another status/,
    'passes',
  ),
  'bom-body': broken(
    'bom-body',
    /\[fail\] no-byte-order-mark: GET \/pets → 200: the 200 body starts with a UTF-8 byte order mark/,
    'fails',
  ),
  'html-500-for-open-inputs': broken(
    'html-500-for-open-inputs',
    /\[fail\] error-body: GET \/pets\?limit=0 → 500: the 500 answer is 'text\/html', not an Error body/,
    'passes',
  ),
  'read-back-differs': broken(
    'read-back-differs',
    /\[fail\] read-back-values: GET \/pets\/\d+ → 200: getPet \d+ shows pet \d+ with 'name' …[^\n]*\(\d+ characters\); it was created with …/,
    'passes',
  ),
  'created-id-reused': broken(
    'created-id-reused',
    /\[fail\] created-id-new: POST \/pets → 201: createPet handed out id \d+, which a pet created earlier already has/,
    'passes',
  ),
  'create-without-auth-ok': broken(
    'create-without-auth-ok',
    /\[fail\] auth-required: POST \/pets → 201: createPet without an Authorization header answered 201, expected 401/,
    'fails',
  ),
  'default-limit-ignored-when-filtered': broken(
    'default-limit-ignored-when-filtered',
    /\[fail\] page-within-limit: GET \/pets\?status=available → 200: listPets returned 30 items for limit=20 \(the default\)/,
    'passes',
  ),
  'rate-limit-without-retry': broken(
    'rate-limit-without-retry',
    /\[fail\] error-body: [^\n]* → 429: the 429 answer is 'text\/html', not an Error body/,
    'fails',
  ),
  // Only creates that overlap in the deployment's gap between reading its store and writing it show these two: the
  // suite's four creates sent at once must all arrive within it, which a busy machine can spread over more than the
  // reference's default 10 ms; 100 ms holds beside two CPU hogs, and costs each create of these two 0.1 s. The lost
  // create is checked with no settle window, as `evicted-after-30-creates` is: with the catalogue's, the suite read it
  // again just past its window by its own clock, which the proxy, on its own, saw as little as 6 ms past the window.
  'concurrent-same-id': {
    ...broken(
      'concurrent-same-id',
      /✗ createPet › keeps each of the creates sent at once[^\n]*\n\s+\[fail\] created-id-new: POST \/pets → 201: createPet handed out id \d+, which a pet created earlier already has \(no order of the 4 requests sent together explains their answers/,
      'passes',
    ),
    options: { breakage: 'concurrent-same-id', raceMs: 100 },
  },
  'concurrent-create-lost': {
    ...broken(
      'concurrent-create-lost',
      /✗ createPet › keeps each of the creates sent at once[^\n]*\n\s+\[fail\] write-kept: GET \/pets\/\d+ → 404: getPet \d+ answered 404 \d+ ms after the pet was created with that id/,
      'passes',
    ),
    options: { breakage: 'concurrent-create-lost', raceMs: 100 },
    settleMs: 0,
  },
  'create-dedup-by-body': broken(
    'create-dedup-by-body',
    /✗ createPet › answers two creates of equal bodies with two pets, each with an id of its own[^\n]*\n\s+\[fail\] created-id-new: POST \/pets → 201: createPet handed out id \d+, which a pet created earlier already has/,
    'passes',
  ),
  // Only a long enough run of creates shows it: the exploration's sequences, after the suite's own creates. Checked
  // with no settle window (the suite and its proxy both fail the first 404 for a pet the run created): what it forgets
  // depends on the creates alone, and with the catalogue's window a read that came about 1.5 s after the create was
  // judged by the suite and the proxy each on its own clock, one past the window (write-kept), the other within it.
  'evicted-after-30-creates': {
    ...broken('evicted-after-30-creates', forgottenFoundByTheExploration, 'passes'),
    foundBy: 'the exploration',
    settleMs: 0,
  },
  // Its time is a clock of its own that moves 1 ms with each request it receives, so it forgets a pet once 100 more
  // requests came, however busy the machine: no check of the suite reads a pet it created that many requests later
  // (each reads back its own within 20), the exploration reads again the pets the checks created hundreds earlier.
  // Checked with no settle window, as `evicted-after-30-creates` is, for the same reason.
  'evicted-after-seconds': {
    ...broken('evicted-after-seconds', forgottenFoundByTheExploration, 'passes'),
    what: `${breakages['evicted-after-seconds']}, on a clock that moves 1 ms with each request it receives`,
    options: { breakage: 'evicted-after-seconds', msPerRequest: 1 },
    foundBy: 'the exploration',
    settleMs: 0,
  },
  'non-ascii-never-listed': broken(
    'non-ascii-never-listed',
    /✗ createPet › shows the created pet in a list filtered by its status[^\n]*\n\s+\[fail\] filter-complete: created pet \d+ is missing from listPets\?status=\w+, a page of \d+ pets that holds them all/,
    'passes',
    'proxy cannot know',
  ),
  // Bytes after what the answer's framing announces: a proxy passes on the answer, not those bytes.
  'content-length-chars': {
    ...broken(
      'content-length-chars',
      /\[fail\] framing: POST \/pets → 201: createPet answered 201, framed wrongly: \d+ bytes? more came after the \d+ bytes its Content-Length announced/,
      'passes',
    ),
    direct: true,
  },
  'stale-list-etag': broken(
    'stale-list-etag',
    /\[fail\] strong-validator: GET \/pets\?limit=100 → 200: listPets gave \/pets\?limit=100 the strong ETag "[^"]+" for two different representations/,
    'passes',
  ),
  'not-modified-always': broken(
    'not-modified-always',
    /✗ listPets › conditional requests › answers If-None-Match and If-Modified-Since by the validators it sends[^\n]*\n\s+\[fail\] not-modified-current: listPets answered 304 to If-None-Match: "contract-test-[0-9a-f]{6}-never-sent", a tag it never sent/,
    'passes',
  ),
  'last-modified-frozen': broken(
    'last-modified-frozen',
    /\[fail\] not-modified-current: GET \/pets\?limit=100 → 304: listPets answered 304 for \/pets\?limit=100 to If-Modified-Since: Mon, 01 Jan 2024 00:00:00 GMT, though an answer dated/,
    'passes',
  ),
  // Bytes after what the answer's framing announces: a proxy passes on the answer, not those bytes.
  'not-modified-with-body': {
    ...broken(
      'not-modified-with-body',
      /\[fail\] framing: GET \/pets\?limit=100 → 304: listPets answered 304, framed wrongly: a 304 has no body, yet/,
      'passes',
    ),
    direct: true,
  },
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
      /Warnings \(not failures\):\n(.*\n)*\s+getPet: GET \/pets\/\d+ → 200: getPet is deprecated, but its answer carries neither Deprecation nor Sunset \(deprecation-header; \d+ more like it\)/,
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
  'empty-name-refused': {
    kind: 'correct',
    what: 'refuses an empty name with a clean 400 Error (field lengths are not shown)',
    options: { breakage: 'empty-name-refused' },
    message:
      /Warnings \(not failures\):\n(.*\n)*\s+createPet: POST \/pets → 400: createPet refused a request valid by the document with 400/,
    dredd: 'passes',
  },
  'unknown-category-refused': {
    kind: 'correct',
    what: 'refuses categories it does not know (1 to 1000 exist) with a clean 400 Error',
    options: { knownCategories: { first: 1n, last: 1000n } },
    dredd: 'passes',
  },
  'int32-storage-refused': {
    kind: 'correct',
    what: 'refuses a categoryId its storage cannot hold (beyond 32 bits) with a clean 400 Error',
    options: { categoryIdBits: 32 },
    dredd: 'passes',
  },
  'name-length-255': {
    kind: 'correct',
    what: 'refuses names longer than 255 characters with a clean 400 Error',
    options: { maxNameLength: 255 },
    dredd: 'passes',
  },
  'read-lag': {
    kind: 'correct',
    what: 'shows a created pet to reads only 0.6 s after the 201 (a replica behind)',
    options: { readLagMs: 600 },
    dredd: 'passes',
  },
  'rate-limit-429': {
    kind: 'correct',
    what: 'answers every 40th request 429 with Retry-After: 1',
    options: { throttle: { status: 429, everyNth: 40, seconds: 1 } },
    dredd: 'passes',
  },
  'rate-limit-503-date': {
    kind: 'correct',
    what: 'answers every 60th request 503 with Retry-After as an HTTP-date',
    options: { throttle: { status: 503, everyNth: 60, seconds: 1, retryAfter: 'http-date' } },
    dredd: 'passes',
  },
  'lenient-integers': {
    kind: 'correct',
    what: 'accepts 7.0 and 1e0 as the integer 7',
    options: { lenientIntegers: true },
    dredd: 'passes',
  },
  etags: {
    kind: 'correct',
    what: 'sends strong ETags and answers If-None-Match with 304',
    options: { etags: true },
    dredd: 'passes',
  },
  'weak-etags': {
    kind: 'correct',
    what: 'sends weak ETags (W/) and answers If-None-Match with 304, and with 200 once its data changed',
    options: { etags: 'weak' },
    dredd: 'passes',
  },
  'last-modified-only': {
    kind: 'correct',
    what: 'sends Last-Modified (no ETag), moved by every write, and answers If-Modified-Since with 304',
    options: { lastModified: true },
    dredd: 'passes',
  },
  'etags-gzip-last-modified': {
    kind: 'correct',
    what: 'compresses its answers with gzip and sends strong ETags and Last-Modified together',
    options: { etags: true, lastModified: true, gzip: true },
    dredd: 'passes',
  },
  'tenant-per-key': {
    kind: 'correct',
    what: 'keeps a store per API key, each seeded alike with ids counting from 1 (the same id names another pet for each key)',
    options: { tenantKeys: [tenantKey] },
    otherKeys: [tenantKey],
    dredd: 'passes',
  },
  'default-status': {
    kind: 'correct',
    what: "gives a pet created without a status the status 'available'",
    options: { defaultStatus: 'available' },
    dredd: 'passes',
  },
  'status-transitions': {
    kind: 'correct',
    what: 'moves a pet created pending to available after 300 ms',
    options: { statusTransition: { from: 'pending', to: 'available', afterMs: 300 } },
    dredd: 'passes',
  },
  'no-www-authenticate': {
    kind: 'correct',
    what: 'answers 401 without a WWW-Authenticate challenge',
    options: { wwwAuthenticate: false },
    dredd: 'passes',
  },
  'limit-clamped': {
    kind: 'correct',
    what: 'clamps an out-of-range limit to 1..100 and answers 200',
    options: { outOfRangeLimit: 'clamp' },
    dredd: 'passes',
  },
  'open-inputs-422': {
    kind: 'correct',
    what: 'answers an out-of-range limit and an unknown status filter with a 422 Error',
    options: { outOfRangeLimit: 'unprocessable', unknownStatusFilter: 'unprocessable' },
    dredd: 'passes',
  },
  'open-inputs-500-error': {
    kind: 'correct',
    what: 'answers an out-of-range limit and an unknown status filter with a 500 Error body',
    options: { outOfRangeLimit: 'server-error', unknownStatusFilter: 'server-error' },
    dredd: 'passes',
  },
  'unknown-status-empty': {
    kind: 'correct',
    what: 'answers an unknown status filter with an empty list',
    options: { unknownStatusFilter: 'empty' },
    dredd: 'passes',
  },
  'status-echoed-not-stored': {
    kind: 'correct',
    what: 'echoes the status sent in the 201 but stores another (transitions are not shown: observed)',
    options: { breakage: 'status-echoed-not-stored' },
    message:
      /Observed, not specified \(never a failure\):\n(.*\n)*\s+createPet: GET \/pets\/\d+ → 200: getPet \d+ shows pet \d+ with 'status' "\w+"; it was created with "\w+" \d+ ms earlier \(status-changed/,
    dredd: 'passes',
  },
  'no-sold-pets': {
    kind: 'correct',
    what: 'holds no sold pet until one is created',
    options: { statusCycle: ['available', 'pending'] },
    dredd: 'passes',
  },
  'ids-out-of-order': {
    kind: 'correct',
    what: 'hands out ids from two workers in turn (the second 500 above the first) and answers creates sent at once out of the order of their ids',
    options: { idsFromTwoWorkers: true },
    dredd: 'passes',
  },
  'replica-behind': {
    kind: 'correct',
    what: 'reads from two replicas in turn, one 0.5 s behind: a pet read at once may be missing on the next read',
    options: { replicaLagMs: 500 },
    dredd: 'passes',
  },
  'name-nfc-normalised': {
    kind: 'correct',
    what: 'normalises names to Unicode NFC, as it documents (canonically equivalent text: a warning, not a failure)',
    options: { breakage: 'name-nfc-normalised' },
    message:
      /Warnings \(not failures\):\n(.*\n)*\s+createPet: POST \/pets → 201: the created item holds a canonically equivalent text in another normal form: 'name': sent "contract-test-[0-9a-f]{6}-Zoe\\u0308 Cafe\\u0301 n\\u0303", got "contract-test-[0-9a-f]{6}-Zoë Café ñ" \(text-normalised/,
    dredd: 'passes',
  },
};

export const catalogue: Record<string, CatalogueEntry> = { ...brokenDeployments, ...correctDeployments };

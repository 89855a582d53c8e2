/**
 * The oracle: every rule that judges an exchange with the Pet Store animals
 * API, in one place, as data. The mock judges its own answers with the
 * response rules; the contract suite, the Dredd hooks and the validating
 * proxy judge a deployment's with all of them. Nothing judges on its own.
 *
 * Each rule says what it checks, the clause of the spec (or of the HTTP/JSON
 * standards) it rests on, whose doing it judges, and its level:
 *
 * - `fail`: the spec or a standard forbids it, and the exchange proves it;
 * - `warn`: a strict reading forbids it, but common correct deployments do it;
 * - `observed`: the spec leaves it open; what the deployment did is recorded.
 *
 * Only `fail` makes a run exit 1; `--strict` makes `warn` fail too.
 */

export type Level = 'fail' | 'warn' | 'observed';

/** Whose doing a rule judges: what the client sent, or what the deployment answered. */
export type Side = 'request' | 'response';

export interface RuleFacts {
  level: Level;
  side: Side;
  /** The clause it rests on: the spec's section, or the standard's. */
  basis: string;
  /** What it checks, as one sentence. */
  checks: string;
}

const spec = 'spec';

export const ruleCatalogue = {
  // What every response is held to, alone.
  'documented-status': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Endpoints: the responses of each operation (openapi.yaml lists them)`,
    checks: 'a request the document covers gets a status the document lists for its operation',
  },
  'body-presence': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Endpoints: each listed response has a JSON body`,
    checks: 'a status documented with a body has one',
  },
  'media-type': {
    level: 'fail',
    side: 'response',
    basis: `${spec} What the service does: "All traffic is HTTP with JSON bodies (application/json)"`,
    checks: 'a body is sent as JSON (parameters such as charset allowed)',
  },
  'json-syntax': {
    level: 'fail',
    side: 'response',
    basis: 'RFC 8259 §2 (a JSON text); a name repeated with another value is ambiguous (§4)',
    checks: 'a JSON body parses as JSON',
  },
  'no-byte-order-mark': {
    level: 'fail',
    side: 'response',
    basis: 'RFC 8259 §8.1: implementations MUST NOT add a byte order mark to a networked JSON text',
    checks: 'a JSON body does not start with U+FEFF',
  },
  schema: {
    level: 'fail',
    side: 'response',
    basis: `${spec} Resources and their fields (openapi.yaml schemas Pet, Pets, Error; int64 exactly, integers without fraction)`,
    checks: 'a body matches the documented schema of its status',
  },
  'error-body': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Errors: "All error responses carry the Error body (code, message, status)"`,
    checks: 'every 4xx and 5xx answer carries an Error body',
  },
  'error-status': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Error: "status: The HTTP status code"`,
    checks: "an Error body's status equals the HTTP status",
  },
  'www-authenticate': {
    level: 'warn',
    side: 'response',
    basis: 'RFC 9110 §11.6.1: a 401 response MUST send WWW-Authenticate (many correct deployments omit it)',
    checks: 'a 401 answer carries a WWW-Authenticate challenge',
  },
  'deprecation-header': {
    level: 'warn',
    side: 'response',
    basis: `${spec} Get an animal (deprecated, removal 2030-12-05); RFC 9745 Deprecation, RFC 8594 Sunset`,
    checks: 'an answer of a deprecated operation announces it with Deprecation or Sunset',
  },

  // What a response is held to, given the request it answers.
  'auth-required': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Authentication 1 and 3: every operation requires the bearer key; a missing or invalid key is answered 401 with an Error`,
    checks: 'a request without a valid key gets 401, whatever else is wrong with it',
  },
  'valid-key-accepted': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Authentication 1 and 2: the bearer key authenticates every operation`,
    checks: 'a request with the valid key is not answered 401',
  },
  'auth-scheme-case': {
    level: 'fail',
    side: 'response',
    basis: 'RFC 9110 §11.1: the authentication scheme is case-insensitive ("bearer" is "Bearer")',
    checks: 'the valid key is accepted with the scheme written in any letter case',
  },
  'invalid-input-refused': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Add an animal, 400: "body missing required fields or containing invalid values"; openapi.yaml schemas`,
    checks:
      'a request that breaks the document where it names the answer gets that answer (400 with an Error), never a success',
  },
  'lenient-input': {
    level: 'warn',
    side: 'response',
    basis:
      'OpenAPI 3.0 Schema Object (JSON Schema Wright-00): 7.0 and 1e0 are not integers; JSON Schema since draft 6, pydantic and Jackson read them as 7',
    checks: 'an integer written with a fraction or an exponent is refused',
  },
  'valid-value-refused': {
    level: 'warn',
    side: 'response',
    basis: `${spec} Add an animal, 400 "invalid values"; Limits: field lengths not shown; the category record is not shown`,
    checks:
      'a body valid by the document is accepted (a clean 400 Error for a value the deployment cannot hold is allowed)',
  },
  'open-input': {
    level: 'observed',
    side: 'response',
    basis: `${spec} Errors: the behaviour for an out-of-range limit or an unknown status filter is not shown; no 400 is listed for listPets or getPet`,
    checks: 'what the deployment answers to an input the spec leaves open',
  },
  'page-within-limit': {
    level: 'fail',
    side: 'response',
    basis: `${spec} List animals: limit is the "maximum number of animals returned", default 20`,
    checks: 'a page holds at most limit pets (the default when limit is absent)',
  },
  'status-filter': {
    level: 'fail',
    side: 'response',
    basis: `${spec} List animals: status "Return only animals with this status"`,
    checks: 'a status-filtered page holds only pets of that status',
  },
  'filter-complete': {
    level: 'fail',
    side: 'response',
    basis: `${spec} List animals: "returns a paginated list of animals (optionally filtered by availability)"`,
    checks: 'a page that holds every match leaves none out, filtered or not',
  },
  'unique-ids': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Pet: id is the "unique identifier assigned by the service on creation"`,
    checks: 'no page lists the same id twice',
  },
  'requested-pet': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Get an animal: petId is "the identifier of the animal to retrieve"`,
    checks: 'getPet answers the pet whose id was asked for, with the values it is listed with',
  },
  'unknown-pet-404': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Get an animal, 404: "the requested resource could not be found"`,
    checks: 'getPet answers 404 for an id no pet has',
  },
  'created-echo': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Add an animal, 201: "the created Pet, including the assigned id" (all fields of NewPet, plus id)`,
    checks: 'the created Pet holds every field sent, byte for byte, and a new int64 id',
  },
  'created-id-new': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Pet: id is the "unique identifier assigned by the service on creation"`,
    checks: 'a created pet gets an id no other pet has',
  },
  'write-kept': {
    level: 'fail',
    side: 'response',
    basis: `${spec} Add an animal "adds a new animal"; Get an animal and List animals return it (read-after-write timing is not shown: a settle window is allowed)`,
    checks: 'a created pet can be read back within the settle window',
  },
  'read-back-values': {
    level: 'fail',
    side: 'response',
    basis: `${spec}: no operation that changes the name or categoryId of an existing animal is shown`,
    checks: 'a created pet is read back with the name and categoryId it was created with',
  },
  'status-changed': {
    level: 'observed',
    side: 'response',
    basis: `${spec} States and transitions: "Transitions: not shown"`,
    checks: 'a pet read back with another status than it was created with',
  },
  'default-status': {
    level: 'observed',
    side: 'response',
    basis: `${spec} NewPet: "No default for status is stated"`,
    checks: 'the status of a pet created without one',
  },
  paging: {
    level: 'observed',
    side: 'response',
    basis: `${spec} List animals: "how to request a further page and any paging metadata are not shown"`,
    checks: 'paging headers a list answer carries',
  },
  'rate-limited': {
    level: 'observed',
    side: 'response',
    basis: `${spec} Limits: rate limits not shown; RFC 6585 §4 (429), RFC 9110 §15.6.4 (503) and §10.2.3 (Retry-After)`,
    checks: 'a 429 or 503 answer, waited out (Retry-After, bounded) and retried',
  },
  'not-modified': {
    level: 'observed',
    side: 'response',
    basis: 'RFC 9110 §13.1.2 and §15.4.5: a 304 may answer a conditional GET whatever the document lists',
    checks: "a 304 answered to the client's own If-None-Match or If-Modified-Since",
  },
  'settle-time': {
    level: 'observed',
    side: 'response',
    basis: `${spec}: read-after-write timing is not shown`,
    checks: 'how long a created pet took to be readable',
  },
  'content-encoding': {
    level: 'fail',
    side: 'response',
    basis: 'RFC 9110 §8.4: Content-Encoding names the codings applied to the body, which must undo them',
    checks: 'an encoded answer decodes as its Content-Encoding says (a truncated gzip body does not)',
  },
  'too-large-to-judge': {
    level: 'observed',
    side: 'response',
    basis: "the proxy's judge limit (a bound of the kit, not of the spec)",
    checks: 'an answer larger than the proxy judges, passed on unjudged',
  },

  // What the client sent (the proxy reports these apart from the deployment's).
  'request-operation': {
    level: 'fail',
    side: 'request',
    basis: `${spec} Endpoints: GET /pets, POST /pets and GET /pets/{petId} are the whole interface shown`,
    checks: 'the request is for a method and path the document has',
  },
  'request-credentials': {
    level: 'fail',
    side: 'request',
    basis: `${spec} Authentication 2: "Authorization: Bearer <API_KEY>"`,
    checks: 'the request carries a bearer key',
  },
  'request-parameters': {
    level: 'fail',
    side: 'request',
    basis: `${spec} Endpoints: the parameters of each operation and their constraints`,
    checks: "the request's path and query parameters are valid",
  },
  'request-body': {
    level: 'fail',
    side: 'request',
    basis: `${spec} Add an animal: the request body is a NewPet, as application/json`,
    checks: "the request's body is present where required and valid",
  },
} as const satisfies Record<string, RuleFacts>;

export type RuleId = keyof typeof ruleCatalogue;

export const ruleIds = Object.keys(ruleCatalogue) as RuleId[];

/** The facts of a rule: its level, side, basis and what it checks. */
export function ruleFacts(rule: RuleId): RuleFacts {
  return ruleCatalogue[rule];
}

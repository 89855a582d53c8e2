import type { OpenAPIV3 } from 'openapi-types';
import type { ApiModel, OperationSemantics } from '../model/describe-api.js';
import type { OperationKind } from '../model/operation-kind.js';
import { resolveRef } from '../openapi/resolve-ref.js';

/**
 * The oracle: every rule that judges an exchange with the API, in one place,
 * as data. The mock judges its own answers with the response rules; the
 * contract suite, the Dredd hooks and the validating proxy judge a
 * deployment's with all of them. Nothing judges on its own.
 *
 * Each rule says what it checks, the clause it rests on (of the spec, of
 * openapi.yaml, or of the HTTP/JSON standards), whose doing it judges, and
 * its level:
 *
 * - `fail`: the spec or a standard forbids it, and the exchange proves it;
 * - `warn`: a strict reading forbids it, but common correct deployments do it;
 * - `observed`: the spec leaves it open; what the deployment did is recorded.
 *
 * Only `fail` makes a run exit 1; `--strict` makes `warn` fail too.
 *
 * A basis that names operations is written from the document (a function of
 * its model): it names the operations, statuses and fields openapi.yaml has,
 * so that a document that grows or loses an operation is judged by what it
 * says, not by a list written here.
 */

export type Level = 'fail' | 'warn' | 'observed';

/** Whose doing a rule judges: what the client sent, or what the deployment answered. */
export type Side = 'request' | 'response';

/** The clause a rule rests on: fixed text, or text written from the document's model. */
export type Basis = string | ((api: ApiModel) => string);

export interface RuleFacts {
  level: Level;
  side: Side;
  /** The clause it rests on: the spec's section, openapi.yaml's, or the standard's. */
  basis: Basis;
  /** What it checks, as one sentence. */
  checks: string;
}

const spec = 'spec';

/** `GET /pets`, as the document writes the operation. */
function route(each: OperationSemantics): string {
  return `${each.operation.method} ${each.operation.pathTemplate}`;
}

/** The operations of some kinds, written as routes: `GET /pets, POST /pets and GET /pets/{petId}`. */
function routes(api: ApiModel, kinds?: readonly OperationKind[]): string {
  const chosen = api.operations.filter((each) => kinds === undefined || kinds.includes(each.kind)).map(route);
  if (chosen.length === 0) return 'none';
  return chosen.length === 1 ? (chosen[0] as string) : `${chosen.slice(0, -1).join(', ')} and ${chosen.at(-1)}`;
}

/** `GET /pets/{petId} 404 "the requested resource could not be found"`: what the document says of a status. */
function statusClause(api: ApiModel, status: string, kinds?: readonly OperationKind[]): string {
  const clauses = api.operations
    .filter((each) => kinds === undefined || kinds.includes(each.kind))
    .map((each) => {
      const response = each.operation.responses.get(status);
      return response ? `${route(each)} ${status} "${response.description.trim().replace(/\.$/, '')}"` : undefined;
    })
    .filter((clause) => clause !== undefined);
  return clauses.length === 0 ? `no operation documents ${status}` : clauses.join('; ');
}

/** The item schemas and the Error schema the document names. */
function schemaNames(api: ApiModel): string {
  const names = api.resources.map((resource) => resource.itemSchema.split('/').at(-1) ?? resource.name);
  return [...new Set([...names, 'Error'])].join(', ');
}

/** `Pet.id`: the id fields of the document's items. */
function idFields(api: ApiModel): string {
  return (
    api.resources.map((resource) => `${resource.itemSchema.split('/').at(-1)}.${resource.idField}`).join(', ') ||
    'no item'
  );
}

/** The description the document gives a parameter, quoted, if any. */
function parameterDescription(api: ApiModel, each: OperationSemantics, name: string | undefined): string {
  if (name === undefined) return '';
  const { document } = api.compiled;
  const lists = [
    each.operation.definition.parameters ?? [],
    document.paths[each.operation.pathTemplate]?.parameters ?? [],
  ];
  for (const raw of lists.flat()) {
    const parameter = resolveRef<OpenAPIV3.ParameterObject>(document, raw, '').value;
    if (parameter.name !== name) continue;
    return parameter.description ? ` "${parameter.description.trim().replace(/\.$/, '')}"` : '';
  }
  return '';
}

/** The page-size parameters of the list operations, with their description and default. */
function pageClauses(api: ApiModel): string {
  const clauses = api.operations
    .filter((each) => each.kind === 'list' && each.page)
    .map((each) => {
      const page = each.page;
      const described = parameterDescription(api, each, page?.name);
      return `${route(each)}: ${page?.name} is the${described || ' page size'}${page?.default === undefined ? '' : `, default ${page.default}`}`;
    });
  return clauses.join('; ') || 'no list operation names a page size';
}

/** The filters of the list operations. */
function filterClauses(api: ApiModel): string {
  const clauses = api.operations
    .filter((each) => each.kind === 'list' && each.filters.length > 0)
    .map(
      (each) => `${route(each)}: ${each.filters.map((f) => `${f}${parameterDescription(api, each, f)}`).join(', ')}`,
    );
  return clauses.join('; ') || 'no list operation has a filter';
}

/** The states of the document's items (enumerations whose transitions it does not show). */
function stateFields(api: ApiModel): string {
  return api.resources
    .flatMap((resource) => resource.states.map((state) => `${resource.itemName}.${state}`))
    .join(', ');
}

/** `Pet.categoryId refers to /categories (its name)`: the references between the document's items. */
function referenceClauses(api: ApiModel): string {
  const clauses = api.resources.flatMap((resource) =>
    resource.references.map((reference) => {
      const target = api.resource(reference.collection);
      const how = reference.declared ? 'x-petstore-references' : 'by its name';
      return `${resource.itemSchema.split('/').at(-1) ?? resource.name}.${reference.field} refers to ${target?.collectionPath ?? reference.collection} (${how})`;
    }),
  );
  return clauses.join('; ') || 'no field refers to another collection';
}

/** The writes of the document, by route. */
const writeKinds: readonly OperationKind[] = ['create', 'replace', 'update', 'delete'];

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
    basis: `${spec} Endpoints: each listed response has a JSON body (openapi.yaml says which have none)`,
    checks: 'a status documented with a body has one, and one documented without has none',
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
    basis: (api) =>
      `${spec} Resources and their fields (openapi.yaml schemas ${schemaNames(api)}; int64 exactly, integers without fraction)`,
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
    basis: (api) => {
      const deprecated = api.operations
        .filter((each) => each.operation.deprecated)
        .map((each) => `${route(each)} deprecated${each.operation.sunset ? `, removal ${each.operation.sunset}` : ''}`);
      return `openapi.yaml: ${deprecated.join('; ') || 'no operation is deprecated'}; RFC 9745 Deprecation, RFC 8594 Sunset`;
    },
    checks: 'an answer of a deprecated operation announces it with Deprecation or Sunset',
  },
  'removed-operation': {
    level: 'observed',
    side: 'response',
    basis: (api) => {
      const removed = api.operations
        .filter((each) => each.operation.sunset !== undefined)
        .map((each) => `${route(each)} x-sunset ${each.operation.sunset}`);
      return `openapi.yaml: ${removed.join('; ') || 'no operation has a removal date'}: after that day, whether the deployment still serves it is its choice`;
    },
    checks: 'what an operation answers once its removal date has passed (still served, 410 or 404)',
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
    basis: (api) => `openapi.yaml: ${statusClause(api, '400')}; its schemas say what is invalid`,
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
    basis: (api) =>
      `openapi.yaml: ${statusClause(api, '400')}; ${spec} Limits: field lengths not shown; the category record is not shown; ${referenceClauses(api)}`,
    checks:
      'a body valid by the document, every item it refers to existing by what the traffic showed, is accepted (a clean 400 Error for a value the deployment cannot hold is allowed)',
  },
  'missing-reference': {
    level: 'observed',
    side: 'response',
    basis: (api) =>
      `openapi.yaml: ${referenceClauses(api)}; the document does not say that a write naming an item that does not exist is refused, nor with which status`,
    checks:
      'what a write answers when a field refers to an item the traffic showed does not exist (deleted, or answered 404): refused, or accepted',
  },
  'open-input': {
    level: 'observed',
    side: 'response',
    basis: (api) => {
      const without = api.operations.filter((each) => !each.operation.responses.has('400')).map(route);
      return `${spec} Errors: the behaviour for an input the document does not allow is not shown where no 400 is listed (${without.join(', ') || 'none'})`;
    },
    checks: 'what the deployment answers to an input the spec leaves open',
  },
  'page-within-limit': {
    level: 'fail',
    side: 'response',
    basis: (api) => `openapi.yaml ${pageClauses(api)}`,
    checks: 'a page holds at most limit items (the default when limit is absent)',
  },
  'status-filter': {
    level: 'fail',
    side: 'response',
    basis: (api) => `openapi.yaml ${filterClauses(api)}`,
    checks: 'a filtered page holds only items with the value asked for',
  },
  'filter-complete': {
    level: 'fail',
    side: 'response',
    basis: (api) =>
      `openapi.yaml ${routes(api, ['list'])}: a list of the items (filtered as asked); ${filterClauses(api)}`,
    checks: 'a page that holds every match leaves none out, filtered or not',
  },
  'unique-ids': {
    level: 'fail',
    side: 'response',
    basis: (api) => `openapi.yaml ${idFields(api)}: the "unique identifier assigned by the service on creation"`,
    checks: 'no page lists the same id twice',
  },
  'requested-item': {
    level: 'fail',
    side: 'response',
    basis: (api) =>
      `openapi.yaml ${routes(api, ['read', 'replace', 'update', 'delete'])}: the path names the item acted on`,
    checks: 'an answer about the item a path names is that item (its id and the values it is listed with)',
  },
  'unknown-item-404': {
    level: 'fail',
    side: 'response',
    basis: (api) => `openapi.yaml: ${statusClause(api, '404', ['read', 'replace', 'update', 'delete'])}`,
    checks: 'an operation on an item (a read, replace, update or delete) answers 404 for an id no item has',
  },
  'created-echo': {
    level: 'fail',
    side: 'response',
    basis: (api) =>
      `openapi.yaml: ${statusClause(api, '201', ['create'])} (the item as created: every field sent, plus the id)`,
    checks: 'the created item holds every field sent, byte for byte, and a new id',
  },
  'written-echo': {
    level: 'fail',
    side: 'response',
    basis: (api) => `openapi.yaml: ${statusClause(api, '200', ['replace', 'update'])} (the item as written)`,
    checks: 'the item a replace or update answers holds every field it set, byte for byte',
  },
  'text-normalised': {
    level: 'warn',
    side: 'response',
    basis:
      'Unicode Standard §3.7 C6 and UAX #15: canonically equivalent texts (NFC, NFD) are the same text; RFC 8259 §8.3 compares JSON strings code unit by code unit, and openapi.yaml says nothing of normalisation',
    checks:
      'a text is echoed and read back as sent, not only as a canonically equivalent text (another normal form); any other change fails',
  },
  'created-id-new': {
    level: 'fail',
    side: 'response',
    basis: (api) => `openapi.yaml ${idFields(api)}: the "unique identifier assigned by the service on creation"`,
    checks: 'a created item gets an id no other item has',
  },
  'write-kept': {
    level: 'fail',
    side: 'response',
    basis: (api) =>
      `openapi.yaml: ${routes(api, writeKinds)} change what ${routes(api, ['read', 'list'])} answer (read-after-write timing is not shown: a settle window is allowed)`,
    checks:
      'an acknowledged write is what reads show once the settle window has passed: a created item readable, a deleted one gone',
  },
  'read-back-values': {
    level: 'fail',
    side: 'response',
    basis: (api) => {
      const writes = routes(api, ['replace', 'update']);
      return writes === 'none'
        ? `${spec}: no operation that changes the fields of an existing item is shown (openapi.yaml has no replace or update)`
        : `openapi.yaml: only ${writes} change an existing item's fields`;
    },
    checks: 'an item is read back with the values last written (states aside), once the settle window has passed',
  },
  'status-changed': {
    level: 'observed',
    side: 'response',
    basis: (api) =>
      `${spec} States and transitions: "Transitions: not shown" (${stateFields(api) || 'no state'}: the service may move them on its own)`,
    checks: 'an item read back in another state than it was last written with',
  },
  'default-status': {
    level: 'observed',
    side: 'response',
    basis: `${spec} NewPet: "No default for status is stated" (openapi.yaml states no default for an optional field a body leaves out)`,
    checks: 'the value of an optional field an item was created without',
  },
  paging: {
    level: 'observed',
    side: 'response',
    basis: (api) =>
      `openapi.yaml ${routes(api, ['list'])}: "how to request a further page and any paging metadata are not shown"`,
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
    checks:
      "a 304 answered to the client's own If-None-Match or If-Modified-Since, or a 200 to a validator it matched (the precondition not evaluated)",
  },
  // Conditional requests: judged only where the deployment sends validators (ETag, Last-Modified).
  'strong-validator': {
    level: 'fail',
    side: 'response',
    basis:
      'RFC 9110 §8.8.1: a strong validator changes whenever the representation data a 200 to GET shows changes; §8.8.3: an entity tag without W/ is strong',
    checks: 'two 200 answers of one request target that carry the same strong ETag have the same content',
  },
  'not-modified-current': {
    level: 'fail',
    side: 'response',
    basis:
      'RFC 9110 §13.1.2: If-None-Match is false only when a tag it lists matches the current representation; §13.1.3: If-Modified-Since is false only when the representation was last modified at or before its date; §15.4.5: a 304 is sent only because the condition was false',
    checks:
      'a 304 answers only a validator that is still current: never a strong ETag or a date that a change the traffic made (settled, and a whole second later than the date) has made stale, nor a tag the deployment never sent or a date before its Last-Modified',
  },
  'weak-validator': {
    level: 'warn',
    side: 'response',
    basis:
      'RFC 9110 §8.8.1: an origin server SHOULD change a weak entity tag whenever it considers prior representations unacceptable as a substitute; §8.8.2: Last-Modified is when it believes the representation was last modified (implicitly weak, §8.8.2.2)',
    checks:
      'a weak ETag or a Last-Modified moves once a change the traffic made has settled: a 304 or 200 with the old one after it is a warning',
  },
  'settle-time': {
    level: 'observed',
    side: 'response',
    basis: `${spec}: read-after-write timing is not shown`,
    checks: 'how long an acknowledged write took to show in reads',
  },
  framing: {
    level: 'fail',
    side: 'response',
    basis:
      'RFC 9112 §6.2 and §6.3: Content-Length is the number of bytes of the body, and a chunked body ends with a last chunk; RFC 9110 §6.4.1 and §15.3.5: a 204, a 304 and an answer to HEAD have no body',
    checks:
      'an answer is framed as HTTP/1.1 says: as many body bytes as its Content-Length, well-formed chunks, no body where its status allows none',
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
    basis: (api) => `openapi.yaml: ${routes(api)} are the whole interface shown`,
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
    basis: `${spec} Endpoints: the parameters of each operation and their constraints (openapi.yaml)`,
    checks: "the request's path and query parameters are valid",
  },
  'request-body': {
    level: 'fail',
    side: 'request',
    basis: (api) =>
      `openapi.yaml: the request body of ${routes(api, ['create', 'replace', 'update'])}, as application/json`,
    checks: "the request's body is present where required and valid",
  },
} as const satisfies Record<string, RuleFacts>;

export type RuleId = keyof typeof ruleCatalogue;

export const ruleIds = Object.keys(ruleCatalogue) as RuleId[];

/** A rule's basis as the document states it (a function basis written from its model). */
export function basisOf(rule: RuleId, api: ApiModel | undefined): string {
  const { basis } = ruleCatalogue[rule] as RuleFacts;
  if (typeof basis === 'string') return basis;
  return api ? basis(api) : `openapi.yaml (the document the run judges by)`;
}

/** The facts of a rule: its level, side, basis (as the document states it) and what it checks. */
export function ruleFacts(rule: RuleId, api?: ApiModel): RuleFacts & { basis: string } {
  return { ...(ruleCatalogue[rule] as RuleFacts), basis: basisOf(rule, api) };
}

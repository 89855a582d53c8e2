import type { Ajv, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { isJsonMediaType } from '../http/media-type.js';
import { stringifyJson } from '../json/exact-json.js';
import { createDocumentAjv, documentId } from './create-document-ajv.js';
import { withExactNumberSchema } from './exact-numbers.js';
import { DocumentError } from './document-error.js';
import { precompiledFor } from './precompiled-validators.js';
import { escapePointerSegment, readPointer, resolveRef } from './resolve-ref.js';

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** The facts of a parameter's schema that decide how its text is turned into a value. */
export interface ParameterShape {
  type: string | undefined;
  itemType: string | undefined;
  default: unknown;
}

export interface CompiledParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  explode: boolean;
  shape: ParameterShape;
}

export interface CompiledResponse {
  status: string;
  description: string;
  /** Validators by media type. */
  validators: Map<string, ValidateFunction>;
  /** Named examples of the JSON body; the unnamed `example` is stored under `default`. */
  examples: Map<string, unknown>;
}

export interface CompiledRequestBody {
  required: boolean;
  mediaTypes: string[];
  validators: Map<string, ValidateFunction>;
}

export interface CompiledOperation {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  pathTemplate: string;
  /** Literal segments, and `{ param }` for templated ones. */
  segments: Array<string | { param: string }>;
  /** How many segments are literal (a route with more wins over a templated one). */
  literalSegments: number;
  parameters: CompiledParameter[];
  /** One validator per location, over an object of that location's (already typed) values. */
  parameterValidators: Record<ParameterLocation, ValidateFunction>;
  requestBody: CompiledRequestBody | undefined;
  responses: Map<string, CompiledResponse>;
  deprecated: boolean;
  /**
   * Whether a request needs credentials: the operation's `security` (or the
   * document's) lists at least one requirement. `security: []` opens it.
   */
  secured: boolean;
  /** `x-sunset` (a date, YYYY-MM-DD): when the operation goes away. */
  sunset: string | undefined;
  /** `x-deprecated-at` (a date, YYYY-MM-DD): since when the operation is deprecated. */
  deprecatedAt: string | undefined;
  /** `x-replaced-by.operationId`, when the document gives one. */
  replacedBy: string | undefined;
  definition: OpenAPIV3.OperationObject;
}

/** The document, with every schema compiled by Ajv. Shared by the mock and the contract suite. */
export interface CompiledDocument {
  document: OpenAPIV3.Document;
  source: string;
  operations: CompiledOperation[];
  byId: Map<string, CompiledOperation>;
  /** Validates a body against `components/schemas/Error`. */
  validateError: ValidateFunction;
  /** A validator for the schema at a JSON pointer in the document (cached). */
  validatorAt(pointer: string): ValidateFunction;
  /**
   * Compiles a schema of the kit's own (it may `$ref` the document as
   * `openapi.json#/components/...`), with the same exact numbers.
   */
  compileSchema(schema: object): ValidateFunction;
}

/**
 * Documents whose schemas the kit's own tests check against Ajv's
 * meta-schema (the kit's openapi.yaml, built in by `npm run generate`, and
 * the admin API's document): compiled without checking them again at every
 * start, which is most of the cost of a first compile. Any other document is
 * checked whole when it is compiled.
 */
const checkedDocuments = new WeakSet<object>();

/** Marks a document as checked by the kit's tests (see `checkedDocuments`); only for documents the kit builds in. */
export function markDocumentChecked(document: OpenAPIV3.Document): void {
  checkedDocuments.add(document);
}

/** Whether the document is one the kit's tests check (see `markDocumentChecked`). */
export function isDocumentChecked(document: OpenAPIV3.Document): boolean {
  return checkedDocuments.has(document);
}

/**
 * Where the schema at `pointer` leads when it is nothing but a local `$ref`
 * (`{ $ref: '#/components/schemas/Pet' }`): the pointer of the schema it
 * names, after any chain of such references. Undefined for any other schema,
 * and for a reference the document cannot resolve (compiling it reports that).
 */
function referredSchema(document: OpenAPIV3.Document, pointer: string): string | undefined {
  const pureRef = (at: string): string | undefined => {
    const schema = readPointer(document, at);
    if (typeof schema !== 'object' || schema === null || Object.keys(schema).length !== 1) return undefined;
    const ref = (schema as { $ref?: unknown }).$ref;
    return typeof ref === 'string' && ref.startsWith('#/') && readPointer(document, ref.slice(1)) !== undefined
      ? ref.slice(1)
      : undefined;
  };
  const seen = new Set([pointer]);
  let target = pureRef(pointer);
  if (target === undefined) return undefined;
  for (let next = pureRef(target); next !== undefined; next = pureRef(target)) {
    // A cycle of references is the compiler's to report.
    if (seen.has(next)) return undefined;
    seen.add(target);
    target = next;
  }
  return seen.has(target) ? undefined : target;
}

function shapeOf(document: OpenAPIV3.Document, schema: unknown, pointer: string): ParameterShape {
  if (schema === undefined) return { type: undefined, itemType: undefined, default: undefined };
  const resolved = resolveRef<OpenAPIV3.SchemaObject>(document, schema as OpenAPIV3.SchemaObject, pointer).value;
  let itemType: string | undefined;
  if (resolved.type === 'array' && resolved.items) {
    itemType = resolveRef<OpenAPIV3.SchemaObject>(document, resolved.items, `${pointer}/items`).value.type;
  }
  return { type: resolved.type, itemType, default: resolved.default };
}

/** Compiles one schema the document asks for, under its key (see `CompileOptions.compile`). */
export type CompileSchema = (key: string, schema: object) => ValidateFunction;

export interface CompileOptions {
  /**
   * The document's exact JSON text, when the caller has written it already (the mock serves it as
   * `/openapi.json`): precompiled validators are found by it. Written here when precompiled validators
   * are known and it is not given.
   */
  json?: string;
  /**
   * Compiles what was not precompiled, each schema under a key: the JSON pointer of a schema of the
   * document (`/components/schemas/Pet`), or a schema's JSON text (an operation's parameters of one
   * location, a schema of the kit's own). Default: Ajv, loaded on first use (see create-document-ajv.ts).
   * Precompiling passes one that keeps each validator's code.
   */
  compile?: CompileSchema;
  /** Whether to use validators made known by `usePrecompiledValidators` (default true). */
  precompiled?: boolean;
}

/**
 * Compiles every operation of an OpenAPI 3.0 document: its route, parameters,
 * request body and responses. Any schema Ajv cannot compile, any unresolved
 * reference and any operation without an `operationId` stops here with a
 * `DocumentError` that names where the problem is. A document whose validators
 * were precompiled (`usePrecompiledValidators`) compiles none of them: Ajv is
 * not even loaded.
 */
export function compileDocument(
  document: OpenAPIV3.Document,
  source = 'openapi.yaml',
  options: CompileOptions = {},
): CompiledDocument {
  const precompiled =
    options.precompiled === false ? undefined : precompiledFor(options.json ?? (() => stringifyJson(document)));
  let ajv: Ajv | undefined;
  const compileAtRunTime: CompileSchema = (_key, schema) => {
    if (!ajv) {
      try {
        ajv = createDocumentAjv(document, { source, checked: checkedDocuments.has(document) });
      } catch (error) {
        if (error instanceof DocumentError) throw error;
        throw new DocumentError(`${source}: ${(error as Error).message}`);
      }
    }
    return ajv.compile(schema);
  };
  const compileFresh = options.compile ?? compileAtRunTime;
  const compile: CompileSchema = (key, schema) => precompiled?.[key] ?? compileFresh(key, schema);

  const cache = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string): ValidateFunction => {
    let validate = cache.get(pointer);
    if (!validate) {
      const target = referredSchema(document, pointer);
      if (target !== undefined) {
        // A schema that is only a `$ref` validates exactly as the schema it names: one validator serves both
        // (the 401 answers of every operation share Error's, the create's body NewPet's), compiled once.
        validate = validatorAt(target);
      } else {
        try {
          validate = compile(pointer, { $ref: `${documentId}#${pointer}` });
        } catch (error) {
          if (error instanceof DocumentError) throw error;
          throw new DocumentError(`${source}: schema at ${pointer}: ${(error as Error).message}`);
        }
      }
      cache.set(pointer, validate);
    }
    return validate;
  };
  // Most operations have no parameters in most locations: identical object schemas share one validator.
  const objectValidators = new Map<string, ValidateFunction>();
  const compileObjectOf = (entries: Array<{ name: string; pointer: string; required: boolean }>): ValidateFunction => {
    const schema = {
      type: 'object',
      properties: Object.fromEntries(entries.map((e) => [e.name, { $ref: `${documentId}#${e.pointer}` }])),
      required: entries.filter((e) => e.required).map((e) => e.name),
      additionalProperties: false,
    };
    const key = JSON.stringify(schema);
    let validate = objectValidators.get(key);
    if (!validate) {
      validate = compile(key, schema);
      objectValidators.set(key, validate);
    }
    return validate;
  };

  // Compile the named schemas first, so that a broken one is reported where it is written.
  for (const name of Object.keys(document.components?.schemas ?? {})) {
    validatorAt(`/components/schemas/${escapePointerSegment(name)}`);
  }

  const operations: CompiledOperation[] = [];
  const byId = new Map<string, CompiledOperation>();
  for (const [pathTemplate, rawPathItem] of Object.entries(document.paths)) {
    const pathPointer = `/paths/${escapePointerSegment(pathTemplate)}`;
    if (!pathTemplate.startsWith('/')) throw new DocumentError(`${source}: path '${pathTemplate}' must start with '/'`);
    const pathItem = resolveRef<OpenAPIV3.PathItemObject>(document, rawPathItem ?? {}, pathPointer);
    for (const method of httpMethods) {
      const definition = pathItem.value[method];
      if (!definition) continue;
      const where = `${method.toUpperCase()} ${pathTemplate}`;
      const opPointer = `${pathItem.pointer}/${method}`;
      if (!definition.operationId) throw new DocumentError(`${source}: ${where} has no operationId`);
      if (byId.has(definition.operationId)) {
        throw new DocumentError(`${source}: operationId '${definition.operationId}' is used twice`);
      }
      try {
        const operation = compileOperation({
          document,
          definition,
          method,
          pathTemplate,
          pathParameters: pathItem.value.parameters ?? [],
          pathPointer: pathItem.pointer,
          opPointer,
          validatorAt,
          compileObjectOf,
        });
        operations.push(operation);
        byId.set(operation.operationId, operation);
      } catch (error) {
        if (error instanceof DocumentError && error.message.startsWith(source)) throw error;
        throw new DocumentError(`${source}: ${where}: ${(error as Error).message}`);
      }
    }
  }

  const errorSchema = document.components?.schemas?.Error;
  if (!errorSchema)
    throw new DocumentError(`${source}: components.schemas.Error is required: every error body uses it`);
  const validateError = validatorAt('/components/schemas/Error');

  // The kit compiles the same few schemas of its own (a fixture's format, a pet list) for every mock of a document.
  const ownSchemas = new Map<string, ValidateFunction>();
  const compileSchema = (schema: object): ValidateFunction => {
    const key = stringifyJson(schema);
    let validate = ownSchemas.get(key);
    if (!validate) {
      validate = compile(key, withExactNumberSchema(schema));
      ownSchemas.set(key, validate);
    }
    return validate;
  };
  return { document, source, operations, byId, validateError, validatorAt, compileSchema };
}

interface CompileOperationInput {
  document: OpenAPIV3.Document;
  definition: OpenAPIV3.OperationObject;
  method: string;
  pathTemplate: string;
  pathParameters: Array<OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject>;
  pathPointer: string;
  opPointer: string;
  validatorAt: (pointer: string) => ValidateFunction;
  compileObjectOf: (entries: Array<{ name: string; pointer: string; required: boolean }>) => ValidateFunction;
}

function compileOperation(input: CompileOperationInput): CompiledOperation {
  const { document, definition, opPointer } = input;

  // Operation-level parameters override path-level ones with the same name and location.
  const located = new Map<string, { value: OpenAPIV3.ParameterObject; pointer: string }>();
  const addParameters = (list: CompileOperationInput['pathParameters'], pointer: string): void => {
    list.forEach((raw, index) => {
      const parameter = resolveRef<OpenAPIV3.ParameterObject>(document, raw, `${pointer}/parameters/${index}`);
      located.set(`${parameter.value.in}:${parameter.value.name}`, parameter);
    });
  };
  addParameters(input.pathParameters, input.pathPointer);
  addParameters(definition.parameters ?? [], opPointer);

  const parameters: CompiledParameter[] = [];
  const byLocation: Record<ParameterLocation, Array<{ name: string; pointer: string; required: boolean }>> = {
    path: [],
    query: [],
    header: [],
    cookie: [],
  };
  for (const { value, pointer } of located.values()) {
    if (!['path', 'query', 'header', 'cookie'].includes(value.in)) {
      throw new DocumentError(`parameter '${value.name}' has an unknown location '${value.in}'`);
    }
    const where = value.in as ParameterLocation;
    if (!value.schema) throw new DocumentError(`parameter '${value.name}' has no schema`);
    const name = where === 'header' ? value.name.toLowerCase() : value.name;
    const required = where === 'path' ? true : value.required === true;
    input.validatorAt(`${pointer}/schema`);
    byLocation[where].push({ name, pointer: `${pointer}/schema`, required });
    const style = value.style ?? (where === 'query' || where === 'cookie' ? 'form' : 'simple');
    parameters.push({
      name,
      in: where,
      required,
      explode: value.explode ?? style === 'form',
      shape: shapeOf(document, value.schema, `${pointer}/schema`),
    });
  }

  const segments = input.pathTemplate
    .split('/')
    .slice(1)
    .map((segment) => {
      const match = /^\{([^}]+)\}$/.exec(segment);
      return match?.[1] ? { param: match[1] } : segment;
    });
  for (const segment of segments) {
    if (typeof segment !== 'string' && !byLocation.path.some((p) => p.name === segment.param)) {
      throw new DocumentError(`path parameter '${segment.param}' is not declared`);
    }
  }
  for (const { name } of byLocation.path) {
    if (!segments.some((segment) => typeof segment !== 'string' && segment.param === name)) {
      throw new DocumentError(`path parameter '${name}' is declared but not in the path`);
    }
  }

  let requestBody: CompiledRequestBody | undefined;
  if (definition.requestBody) {
    const body = resolveRef<OpenAPIV3.RequestBodyObject>(document, definition.requestBody, `${opPointer}/requestBody`);
    const validators = new Map<string, ValidateFunction>();
    for (const [mediaType, content] of Object.entries(body.value.content ?? {})) {
      if (content.schema && isJsonMediaType(mediaType)) {
        validators.set(
          mediaType.toLowerCase(),
          input.validatorAt(`${body.pointer}/content/${escapePointerSegment(mediaType)}/schema`),
        );
      }
    }
    requestBody = {
      required: body.value.required === true,
      mediaTypes: Object.keys(body.value.content ?? {}).map((m) => m.toLowerCase()),
      validators,
    };
  }

  const responses = new Map<string, CompiledResponse>();
  if (!definition.responses || Object.keys(definition.responses).length === 0) {
    throw new DocumentError('has no responses');
  }
  for (const [status, raw] of Object.entries(definition.responses)) {
    const response = resolveRef<OpenAPIV3.ResponseObject>(
      document,
      raw,
      `${opPointer}/responses/${escapePointerSegment(status)}`,
    );
    const validators = new Map<string, ValidateFunction>();
    const examples = new Map<string, unknown>();
    for (const [mediaType, content] of Object.entries(response.value.content ?? {})) {
      const contentPointer = `${response.pointer}/content/${escapePointerSegment(mediaType)}`;
      if (content.schema) validators.set(mediaType.toLowerCase(), input.validatorAt(`${contentPointer}/schema`));
      if (!isJsonMediaType(mediaType)) continue;
      if (content.example !== undefined) examples.set('default', content.example);
      for (const [name, rawExample] of Object.entries(content.examples ?? {})) {
        const example = resolveRef<OpenAPIV3.ExampleObject>(
          document,
          rawExample,
          `${contentPointer}/examples/${escapePointerSegment(name)}`,
        );
        if (example.value.value !== undefined) examples.set(name, example.value.value);
      }
      if (examples.size === 0 && content.schema) {
        const schema = resolveRef<OpenAPIV3.SchemaObject>(document, content.schema, `${contentPointer}/schema`);
        if (schema.value.example !== undefined) examples.set('default', schema.value.example);
      }
    }
    responses.set(status, { status, description: response.value.description, validators, examples });
  }

  const extensions = definition as Record<string, unknown>;
  const sunset = dateExtension(extensions, 'x-sunset');
  const deprecatedAt = dateExtension(extensions, 'x-deprecated-at');
  if (sunset !== undefined && deprecatedAt !== undefined && deprecatedAt > sunset) {
    throw new DocumentError(`x-deprecated-at (${deprecatedAt}) must not be after x-sunset (${sunset})`);
  }
  const replacedBy = (extensions['x-replaced-by'] as { operationId?: unknown } | undefined)?.operationId;

  return {
    operationId: definition.operationId as string,
    method: input.method.toUpperCase(),
    pathTemplate: input.pathTemplate,
    segments,
    literalSegments: segments.filter((segment) => typeof segment === 'string').length,
    parameters,
    parameterValidators: {
      path: input.compileObjectOf(byLocation.path),
      query: input.compileObjectOf(byLocation.query),
      header: input.compileObjectOf(byLocation.header),
      cookie: input.compileObjectOf(byLocation.cookie),
    },
    requestBody,
    responses,
    deprecated: definition.deprecated === true,
    secured: (definition.security ?? document.security ?? []).length > 0,
    sunset,
    deprecatedAt,
    replacedBy: typeof replacedBy === 'string' ? replacedBy : undefined,
    definition,
  };
}

/** An `x-` extension holding a date (YYYY-MM-DD), or undefined when absent. */
function dateExtension(extensions: Record<string, unknown>, name: string): string | undefined {
  const value = extensions[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new DocumentError(`${name} must be a date (YYYY-MM-DD), found ${JSON.stringify(value)}`);
  }
  return value;
}

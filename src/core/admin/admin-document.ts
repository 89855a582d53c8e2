import type { OpenAPIV3 } from 'openapi-types';

/**
 * The admin API, described as its own small OpenAPI document so that it runs
 * through the same pipeline (route match, auth, validation of requests and
 * responses) as the animals API. It is served under `/__admin` and is not
 * part of openapi.yaml. Its Error schema is the API's own.
 */
export function createAdminDocument(
  errorSchema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject,
): OpenAPIV3.Document {
  const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
  const errors = {
    '401': { description: 'Missing or invalid key', content: json('Error') },
  };
  return {
    openapi: '3.0.3',
    info: { title: 'petstore-kit admin API', version: '1.0.0' },
    paths: {
      '/scenarios': {
        get: {
          operationId: 'listScenarios',
          responses: {
            '200': { description: 'The scenarios and the current one', content: json('Scenarios') },
            ...errors,
          },
        },
      },
      '/scenario': {
        post: {
          operationId: 'switchScenario',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name'],
                  additionalProperties: false,
                  properties: { name: { type: 'string', minLength: 1 } },
                },
              },
            },
          },
          responses: {
            '200': { description: 'The store now holds the scenario', content: json('StoreState') },
            '400': { description: 'Invalid body', content: json('Error') },
            '404': { description: 'Unknown scenario', content: json('Error') },
            ...errors,
          },
        },
      },
      '/reset': {
        post: {
          operationId: 'resetStore',
          responses: {
            '200': { description: "The store is back to the scenario's initial pets", content: json('StoreState') },
            ...errors,
          },
        },
      },
      '/requests': {
        get: {
          operationId: 'listRequests',
          responses: { '200': { description: 'The journal, oldest first', content: json('Journal') }, ...errors },
        },
        delete: {
          operationId: 'clearRequests',
          // Emptying the journal is not itself kept in it: a cleared journal reads empty.
          'x-petstore-journal': false,
          responses: { '200': { description: 'The journal is empty', content: json('Cleared') }, ...errors },
        },
      },
    },
    components: {
      schemas: {
        Error: errorSchema,
        StoreState: {
          type: 'object',
          required: ['scenario', 'pets'],
          properties: { scenario: { type: 'string' }, pets: { type: 'integer', minimum: 0 } },
        },
        Scenarios: {
          type: 'object',
          required: ['current', 'scenarios'],
          properties: {
            current: { type: 'string' },
            scenarios: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'description'],
                properties: { name: { type: 'string' }, description: { type: 'string' } },
              },
            },
          },
        },
        Journal: {
          type: 'object',
          required: ['capacity', 'dropped', 'requests'],
          properties: {
            capacity: { type: 'integer' },
            dropped: { type: 'integer' },
            requests: { type: 'array', items: { type: 'object', required: ['method', 'url', 'status'] } },
          },
        },
        Cleared: { type: 'object', required: ['cleared'], properties: { cleared: { type: 'integer' } } },
      },
    },
  } as OpenAPIV3.Document;
}

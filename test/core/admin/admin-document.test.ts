import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { createAdminDocument, maxStoreReadLimit } from '../../../src/core/admin/admin-document.js';
import { fillAdminDocument } from '../../../src/core/admin/fill-admin-document.js';
import { maxFaultTimes, maxLatencyMs } from '../../../src/core/admin/session-controls.js';
import { storeFilters } from '../../../src/core/admin/store-filters.js';
import { sessionNamePattern } from '../../../src/core/http/session-header.js';
import { parseExactYaml } from '../../../src/core/json/parse-exact-yaml.js';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { faultKinds } from '../../../src/core/state/state-store.js';
import { adminDocumentTemplate } from '../../../src/generated/admin-document.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { packageRoot } from '../../../src/package-root.js';

const api = compileDocument(defaultDocument);
const schemas = defaultDocument.components?.schemas ?? {};
const admin = createAdminDocument(schemas, ['pets', 'orders'], storeFilters(api));
const adminSchemas = admin.components?.schemas as Record<string, OpenAPIV3.SchemaObject>;

describe('the admin API’s document (src/core/admin/admin-api.yaml)', () => {
  it('is embedded by npm run generate exactly as the data file writes it', () => {
    const file = parseExactYaml(readFileSync(join(packageRoot, 'src', 'core', 'admin', 'admin-api.yaml'), 'utf8'));
    expect(adminDocumentTemplate).toEqual(file);
  });

  it('compiles, every schema checked, once filled in with the API’s schemas, collections and filters', () => {
    const compiled = compileDocument(admin, 'admin API');
    expect([...compiled.byId.keys()]).toContain('readStore');
  });

  it('takes the API’s Error schema, and counts each of its collections wherever a store’s state is told', () => {
    expect(adminSchemas.Error).toEqual(schemas.Error);
    const state = adminSchemas.AdminStoreState as OpenAPIV3.SchemaObject;
    expect(state.required).toEqual(['scenario', 'pets', 'orders']);
    expect(Object.keys(state.properties ?? {})).toEqual(['scenario', 'pets', 'orders']);
    const sessions = (adminSchemas.AdminSessions?.properties?.sessions as OpenAPIV3.ArraySchemaObject)
      .items as OpenAPIV3.SchemaObject;
    expect(sessions.required).toEqual(['name', 'scenario', 'pets', 'orders', 'copied', 'requests', 'faults']);
    expect(JSON.stringify(admin)).not.toContain('x-petstore-collection-counts');
  });

  it('takes the collection to read, one of the API’s, and the API’s list filters as the store view’s query parameters', () => {
    const parameters = (admin.paths['/store']?.get?.parameters ?? []) as OpenAPIV3.ParameterObject[];
    expect(parameters.map((parameter) => parameter.name)).toEqual(['resource', 'limit', 'status']);
    expect(parameters[0]?.schema).toEqual({ type: 'string', enum: ['pets', 'orders'] });
    expect((adminSchemas.AdminStoredItems?.properties?.resource as OpenAPIV3.SchemaObject).enum).toEqual([
      'pets',
      'orders',
    ]);
    expect(adminSchemas.AdminSessions?.required).toContain('collections');
    expect(JSON.stringify(admin)).not.toContain('x-petstore-store-filters');
    expect(JSON.stringify(admin)).not.toContain('x-petstore-collection-names');
  });

  it('states the bounds the kit’s code holds: session names, store reads, latency, fault counts and kinds', () => {
    const drop = admin.paths['/sessions/{name}']?.delete?.parameters?.[0] as OpenAPIV3.ParameterObject;
    expect((drop.schema as OpenAPIV3.SchemaObject).pattern).toBe(sessionNamePattern);
    const limit = ((admin.paths['/store']?.get?.parameters ?? []) as OpenAPIV3.ParameterObject[]).find(
      (parameter) => parameter.name === 'limit',
    )?.schema as OpenAPIV3.SchemaObject;
    expect(limit.maximum).toBe(maxStoreReadLimit);
    const latency = adminSchemas.AdminLatency?.properties as Record<string, OpenAPIV3.SchemaObject>;
    expect([latency.min?.maximum, latency.max?.maximum]).toEqual([maxLatencyMs, maxLatencyMs]);
    const fault = adminSchemas.AdminNewFault?.properties as Record<string, OpenAPIV3.SchemaObject>;
    expect(fault.times?.maximum).toBe(maxFaultTimes);
    expect(fault.fault?.enum).toEqual([...faultKinds]);
  });

  it('stops the build on a broken schema, as npm run generate compiles it', () => {
    const broken = structuredClone(adminDocumentTemplate) as OpenAPIV3.Document;
    (broken.components?.schemas as Record<string, unknown>).AdminCleared = { type: 'integr' };
    expect(() => compileDocument(fillAdminDocument(broken, schemas, ['pets']), 'admin-api.yaml')).toThrow();
  });
});

import type { OpenAPIV3 } from 'openapi-types';
import { stringifyJson } from '../core/json/exact-json.js';
import type { CompiledDocument, CompiledOperation } from '../core/openapi/compile-document.js';
import { resolveRef } from '../core/openapi/resolve-ref.js';
import { type Int64, idText } from './exact-ids.js';
import { toDraft4Schema } from './to-draft4-schema.js';

/** What the hook file does to one Dredd transaction. */
export interface DreddPlanEntry {
  /** Dredd's transaction name: `<path> > <summary or method> > <status> > <media type>`. */
  name: string;
  operationId: string;
  status: number;
  /** Why the transaction is skipped, when it is. */
  skip?: string;
  /** Send the key, or no Authorization header at all (to provoke 401). */
  auth: 'token' | 'none';
  /** A path (below the base URL) replacing the one Dredd built from the examples. */
  uri?: string;
  /** A JSON text replacing the example request body. */
  body?: string;
  /** The draft-04 schema the body must match. */
  schema: Record<string, unknown>;
}

export interface DreddPlan {
  /** The base URL's path (`/v1`), which Dredd puts before each path. */
  basePath: string;
  /** The file the hooks write what they saw to. */
  resultFile: string;
  /** The module (dist/contract/dredd-judge.js) whose response rules the hooks apply. */
  judgeModule: string;
  entries: DreddPlanEntry[];
}

export interface DreddPlanInput {
  basePath: string;
  resultFile: string;
  judgeModule: string;
  readOnly: boolean;
  /** An id that exists (listed or created), if any, exact. */
  existingId: Int64 | undefined;
  unknownId: Int64;
  /** A valid request body per operation that has one. */
  validBody: (operation: CompiledOperation) => unknown;
}

function pathWith(operation: CompiledOperation, id: Int64): string {
  return `/${operation.segments.map((s) => (typeof s === 'string' ? s : idText(id))).join('/')}`;
}

/** The schema of a response, as draft-04; for an error status, Error with `status` pinned to that status. */
function responseSchema(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  status: string,
  mediaType: string,
): Record<string, unknown> {
  const raw = operation.definition.responses[status];
  if (!raw) throw new Error(`${operation.operationId} has no response ${status}`);
  const response = resolveRef<OpenAPIV3.ResponseObject>(compiled.document, raw, '').value;
  const schema = response.content?.[mediaType]?.schema;
  if (!schema) return { $schema: 'http://json-schema.org/draft-04/schema#' };
  const converted = toDraft4Schema(compiled.document, schema);
  const code = Number(status);
  const properties = converted.properties as Record<string, Record<string, unknown>> | undefined;
  if (code >= 400 && properties?.status) properties.status = { ...properties.status, enum: [code] };
  return converted;
}

/**
 * One entry per transaction Dredd makes from the document, saying how to make
 * the documented status really happen and which schema the body must match.
 */
export function buildDreddPlan(compiled: CompiledDocument, input: DreddPlanInput): DreddPlan {
  const entries: DreddPlanEntry[] = [];
  for (const operation of compiled.operations) {
    const label = operation.definition.summary ?? operation.method;
    for (const [status, raw] of Object.entries(operation.definition.responses)) {
      const response = resolveRef<OpenAPIV3.ResponseObject>(compiled.document, raw, '').value;
      for (const mediaType of Object.keys(response.content ?? {})) {
        const code = Number(status);
        const entry: DreddPlanEntry = {
          name: `${operation.pathTemplate} > ${label} > ${status} > ${mediaType}`,
          operationId: operation.operationId,
          status: code,
          auth: code === 401 ? 'none' : 'token',
          schema: responseSchema(compiled, operation, status, mediaType),
        };
        const hasPathId = operation.segments.some((s) => typeof s !== 'string');
        if (hasPathId) {
          if (code === 404) entry.uri = pathWith(operation, input.unknownId);
          else if (input.existingId !== undefined) {
            entry.uri = pathWith(operation, input.existingId);
          } else if (code < 300) entry.skip = 'no pet is listed and read-only mode forbids creating one';
          else entry.uri = pathWith(operation, 1);
        }
        if (operation.requestBody) {
          if (code === 400) entry.body = '{}';
          else entry.body = stringifyJson(input.validBody(operation));
          if (input.readOnly && code < 300) entry.skip = 'read-only mode: this transaction creates data';
          // A read-only run sends nothing that could be stored, even to a deployment with an auth hole.
          if (input.readOnly && code === 401) entry.body = '{}';
        }
        if (Number.isNaN(code) || (code >= 300 && ![400, 401, 404].includes(code))) {
          entry.skip = `no way is known to provoke status ${status}`;
        }
        entries.push(entry);
      }
    }
  }
  return { basePath: input.basePath, resultFile: input.resultFile, judgeModule: input.judgeModule, entries };
}

import type { OpenAPIV3 } from 'openapi-types';
import { stringifyJson } from '../core/json/exact-json.js';
import { describeApi, type OperationSemantics } from '../core/model/describe-api.js';
import { type OperationKind, writesByMethod } from '../core/model/operation-kind.js';
import type { CompiledDocument, CompiledOperation } from '../core/openapi/compile-document.js';
import { resolveRef } from '../core/openapi/resolve-ref.js';
import { idText, type ItemId } from './exact-ids.js';
import { toDraft4Schema } from './to-draft4-schema.js';

/** What the hook file does to one Dredd transaction. */
export interface DreddPlanEntry {
  /** Dredd's transaction name: `<path> > <summary or method> > <status> > <media type>`. */
  name: string;
  operationId: string;
  /** What the operation is (its kind by the document's model): the hooks keep the ids a `create` hands out. */
  kind: OperationKind;
  status: number;
  /** Why the transaction is skipped, when it is. */
  skip?: string;
  /** Send the key, or no Authorization header at all (to provoke 401). */
  auth: 'token' | 'none';
  /** A path (below the base URL) replacing the one Dredd built from the examples. */
  uri?: string;
  /** A JSON text replacing the example request body. */
  body?: string;
  /** The draft-04 schema the body must match; none for a response documented without a body (a 204). */
  schema?: Record<string, unknown>;
}

export interface DreddPlan {
  /** The document Dredd runs from, which the hooks' judge reads too. */
  documentPath: string;
  /** The base URL's path (`/v1`), which Dredd puts before each path. */
  basePath: string;
  /** The file the hooks write what they saw to. */
  resultFile: string;
  /** The module (dist/contract/dredd-judge.js) whose response rules the hooks apply. */
  judgeModule: string;
  entries: DreddPlanEntry[];
}

/** The ids the plan puts in the paths of an operation on an item, found (or made) before Dredd runs. */
export interface PlanIds {
  /** An item that exists (the first its list shows, or one created for the purpose), if any, exact. */
  existing: ItemId | undefined;
  /** An id no item has, far from every id seen. */
  unknown: ItemId;
  /** An item created for this operation alone, for a transaction that changes or removes it; undefined read-only. */
  own: ItemId | undefined;
}

export interface DreddPlanInput {
  documentPath: string;
  basePath: string;
  resultFile: string;
  judgeModule: string;
  readOnly: boolean;
  /** The ids for an operation on an item (by its resource). */
  ids: (semantics: OperationSemantics) => PlanIds;
  /** A valid request body per operation that has one. */
  validBody: (operation: CompiledOperation) => unknown;
}

function pathWith(operation: CompiledOperation, id: ItemId): string {
  return `/${operation.segments.map((s) => (typeof s === 'string' ? s : encodeURIComponent(idText(id)))).join('/')}`;
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
 * the documented status really happen and which schema the body must match,
 * by what each operation is (never by its name): a 404 asks for an id no item
 * has; a read's success for an item that exists; a success of a write on an
 * item (PUT, PATCH, DELETE) for an item created for that operation alone, so
 * that no item the deployment held is changed; a 401 of such a write for an
 * id no item has. In read-only mode no transaction whose method may write is
 * sent, with any key.
 */
export function buildDreddPlan(compiled: CompiledDocument, input: DreddPlanInput): DreddPlan {
  const model = describeApi(compiled);
  const entries: DreddPlanEntry[] = [];
  for (const operation of compiled.operations) {
    const semantics = model.of(operation);
    const writes = writesByMethod(operation.method);
    const label = operation.definition.summary ?? operation.method;
    for (const [status, raw] of Object.entries(operation.definition.responses)) {
      const response = resolveRef<OpenAPIV3.ResponseObject>(compiled.document, raw, '').value;
      const mediaTypes = Object.keys(response.content ?? {});
      // Dredd names a transaction without a body by its status alone.
      for (const mediaType of mediaTypes.length > 0 ? mediaTypes : [undefined]) {
        const code = Number(status);
        const entry: DreddPlanEntry = {
          name: `${operation.pathTemplate} > ${label} > ${status}${mediaType === undefined ? '' : ` > ${mediaType}`}`,
          operationId: operation.operationId,
          kind: semantics.kind,
          status: code,
          auth: code === 401 ? 'none' : 'token',
          ...(mediaType === undefined ? {} : { schema: responseSchema(compiled, operation, status, mediaType) }),
        };
        const hasPathId = operation.segments.some((s) => typeof s !== 'string');
        if (hasPathId) {
          const ids = semantics.resource
            ? input.ids(semantics)
            : { existing: undefined, unknown: 1_000_000_007, own: undefined };
          if (code === 404 || (writes && code === 401)) entry.uri = pathWith(operation, ids.unknown);
          else if (writes) {
            const id = ids.own ?? (code < 300 ? undefined : ids.unknown);
            if (id === undefined) entry.skip = 'no item could be created for it to change';
            else entry.uri = pathWith(operation, id);
          } else if (ids.existing !== undefined) entry.uri = pathWith(operation, ids.existing);
          else if (code < 300) entry.skip = 'no item is listed and read-only mode forbids creating one';
          else entry.uri = pathWith(operation, 1);
        }
        if (operation.requestBody) entry.body = code === 400 ? '{}' : stringifyJson(input.validBody(operation));
        if (Number.isNaN(code) || (code >= 300 && ![400, 401, 404].includes(code))) {
          entry.skip = `no way is known to provoke status ${status}`;
        }
        if (input.readOnly && writes) entry.skip = `read-only mode: ${operation.method} may write`;
        entries.push(entry);
      }
    }
  }
  return {
    documentPath: input.documentPath,
    basePath: input.basePath,
    resultFile: input.resultFile,
    judgeModule: input.judgeModule,
    entries,
  };
}

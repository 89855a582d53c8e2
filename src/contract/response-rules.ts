import { describeDetail } from '../errors/from-ajv-errors.js';
import { type CompiledDocument, type CompiledOperation, isJsonMediaType } from '../openapi/compile-document.js';
import type { ContractResponse } from './http-client.js';

function truncate(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * The rules every response must follow, whatever was asked: a status the document
 * lists for the operation, a JSON Content-Type, a body valid against the documented
 * schema, and for 4xx/5xx a valid Error whose `status` equals the HTTP status.
 * Returns one sentence per broken rule; none means the response conforms.
 */
export function responseProblems(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  response: ContractResponse,
): string[] {
  const problems: string[] = [];
  const { status } = response;
  const documented = [...operation.responses.keys()];
  const isDocumented = operation.responses.has(String(status)) || operation.responses.has('default');
  if (!isDocumented) {
    problems.push(`undocumented status ${status} for ${operation.operationId} (documented: ${documented.join(', ')})`);
  }
  if (response.text === '') {
    problems.push(`status ${status} came with an empty body`);
    return problems;
  }
  if (!isJsonMediaType(response.mediaType)) {
    problems.push(
      `Content-Type is '${response.contentType || '(none)'}', not JSON (body starts: ${JSON.stringify(truncate(response.text, 60))})`,
    );
    return problems;
  }
  if (response.jsonError !== undefined) {
    problems.push(`body is not valid JSON (${JSON.stringify(truncate(response.text, 60))})`);
    return problems;
  }
  const body = response.json;
  if (status >= 400) {
    if (!compiled.validateError(body)) {
      const details = (compiled.validateError.errors ?? []).map(
        (e) => `${e.instancePath || 'body'} ${e.message ?? ''}`,
      );
      problems.push(`error body is not a valid Error: ${details.join('; ')} (body: ${truncate(JSON.stringify(body))})`);
    } else {
      const errorStatus = (body as { status: unknown }).status;
      if (errorStatus !== status) {
        problems.push(`Error.status mismatch: the body says ${String(errorStatus)} but the HTTP status is ${status}`);
      }
    }
  }
  if (isDocumented) {
    const details = compiled.checkResponse(operation, status, 'application/json', body);
    if (details.length > 0 && !(status >= 400 && problems.some((p) => p.startsWith('error body')))) {
      problems.push(
        `body does not match the documented schema for ${status}: ${details.map(describeDetail).join('; ')}`,
      );
    }
  }
  return problems;
}

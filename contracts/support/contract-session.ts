import { appendFileSync } from 'node:fs';
import { afterEach, describe, expect, inject } from 'vitest';
import { type BodyGenerators, createBodyGenerators } from './body-generators.js';
import { requestBodySchema } from './document-facts.js';
import type { ContractRecord, ContractSettings, NoteRecord } from '../../src/contract/contract-settings.js';
import { type Int64, idOf, idText } from '../../src/contract/exact-ids.js';
import {
  type ContractRequest,
  type RawResponse,
  createHttpClient,
  describeRequest,
} from '../../src/contract/http-client.js';
import { createRedactor, secretsOf } from '../../src/contract/redact.js';
import { type ResponseRule, type Violation, judgeReceivedResponse } from '../../src/core/rules/response-rules.js';
import {
  type CompiledDocument,
  type CompiledOperation,
  compileDocument,
} from '../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

/** A response, with its body read exactly by the response rules and what they found wrong with it. */
export interface ContractResponse extends RawResponse {
  /** The body as parsed by `judgeReceivedResponse` (integers as number or bigint); undefined when none or unreadable. */
  body: unknown;
  violations: Violation[];
}

export interface CallOptions {
  /** Unspecified behaviour: never fail on the rules, leave `violations` to the caller. */
  observe?: boolean;
  /** Rules the check itself judges for this request (e.g. `documented-status` where any 4xx is fine). */
  tolerate?: ResponseRule[];
}

export type RequestParts = Omit<ContractRequest, 'method' | 'path'> & { path?: string };

export interface ContractSession {
  settings: ContractSettings;
  compiled: CompiledDocument;
  operation(operationId: string): CompiledOperation;
  /** The operation's path with its parameters filled in exactly, e.g. `/pets/9223372036854775807`. */
  pathOf(operationId: string, params?: Record<string, string | number | bigint>): string;
  /** Sends a request for an operation and judges the response with the one rule set every response follows. */
  call(operationId: string, request: RequestParts, options?: CallOptions): Promise<ContractResponse>;
  /** Fails the current check with the message unless the condition holds. */
  verify(condition: boolean, message: string): asserts condition;
  record(kind: NoteRecord['kind'], operationId: string, message: string): void;
  /** Request-body generators for an operation, derived from its schema (free text gets the name prefix). */
  bodies(operationId: string): BodyGenerators;
  /** Ids of the pets this run created. */
  createdIds: Int64[];
  redact(text: string): string;
  /** The rule violations seen since the last call. */
  takeProblems(): string[];
  /** The most pets any listPets answer of this run held: a page cap, if any, is at least this. */
  largestPageSeen(): number;
}

let compiledDocument: CompiledDocument | undefined;
const sessions = new Map<string, ContractSession>();

function currentCheckName(): string {
  return expect.getState().currentTestName ?? '(setup)';
}

function createSession(settings: ContractSettings): ContractSession {
  const compiled = (compiledDocument ??= compileDocument(loadDocument(defaultDocumentPath)));
  const redact = createRedactor(secretsOf(settings.token, settings.headers));
  const send = createHttpClient(settings);
  let problems: string[] = [];
  const createdIds: Int64[] = [];
  let largestPage = 0;

  const operation = (operationId: string): CompiledOperation => {
    const found = compiled.byId.get(operationId);
    if (!found) throw new Error(`openapi.yaml has no operation '${operationId}'`);
    return found;
  };

  const append = (line: ContractRecord): void => appendFileSync(settings.recordFile, `${JSON.stringify(line)}\n`);

  const record: ContractSession['record'] = (kind, operationId, message) => {
    append({ kind, operationId, check: currentCheckName(), message: redact(message) });
  };

  const pathOf: ContractSession['pathOf'] = (operationId, params = {}) => {
    const op = operation(operationId);
    return `/${op.segments
      .map((segment) => {
        if (typeof segment === 'string') return segment;
        const value = params[segment.param];
        if (value === undefined) throw new Error(`${operationId} needs the path parameter '${segment.param}'`);
        return encodeURIComponent(String(value));
      })
      .join('/')}`;
  };

  const generators = new Map<string, BodyGenerators>();
  const bodies = (operationId: string): BodyGenerators => {
    let found = generators.get(operationId);
    if (!found) {
      const op = operation(operationId);
      const validate = op.requestBody?.validators.get('application/json');
      if (!validate) throw new Error(`${operationId} has no JSON request body in openapi.yaml`);
      found = createBodyGenerators(compiled, requestBodySchema(compiled, op), validate, settings.namePrefix);
      generators.set(operationId, found);
    }
    return found;
  };

  const call: ContractSession['call'] = async (operationId, request, options = {}) => {
    const op = operation(operationId);
    const full: ContractRequest = { ...request, method: op.method, path: request.path ?? pathOf(operationId) };
    const raw = await send(full);
    const { violations, body } = judgeReceivedResponse(compiled, op, {
      status: raw.status,
      contentType: raw.headers['content-type'],
      text: raw.text,
    });
    const response: ContractResponse = { ...raw, body, violations };
    append({ kind: 'response', operationId, status: raw.status });
    if (raw.status === 200 && op.operationId === 'listPets' && Array.isArray(body)) {
      largestPage = Math.max(largestPage, body.length);
    }
    const id = idOf(body);
    if (op.method === 'POST' && raw.status === 201 && id !== undefined) {
      createdIds.push(id);
      append({ kind: 'created', operationId, check: currentCheckName(), id: idText(id) });
    }
    if (!options.observe) {
      const where = `${describeRequest(full)} → ${raw.status}`;
      const tolerated = new Set(options.tolerate ?? []);
      for (const violation of violations) {
        if (!tolerated.has(violation.rule)) problems.push(`${where}: ${violation.message}`);
      }
    }
    return response;
  };

  return {
    settings,
    compiled,
    operation,
    pathOf,
    call,
    verify(condition, message): asserts condition {
      if (!condition) throw new Error(redact(message));
    },
    record,
    bodies,
    createdIds,
    redact,
    takeProblems() {
      const found = problems;
      problems = [];
      return found;
    },
    largestPageSeen: () => largestPage,
  };
}

function sessionFor(settings: ContractSettings): ContractSession {
  let session = sessions.get(settings.recordFile);
  if (!session) {
    session = createSession(settings);
    sessions.set(settings.recordFile, session);
  }
  return session;
}

/**
 * Defines a check file's checks once per deployment the runner checks (one,
 * except in the self-test's batches, where each deployment's checks sit under
 * its label). Every response a check saw must follow the general rules,
 * whatever the check itself asserted.
 */
export function forEachDeployment(define: (api: ContractSession) => void): void {
  const targets = inject('contract');
  if (!Array.isArray(targets) || targets.length === 0) {
    throw new Error('the contract checks must be started by the petstore-contract runner');
  }
  for (const settings of targets) {
    const api = sessionFor(settings);
    const body = (): void => {
      afterEach(() => {
        const found = api.takeProblems();
        if (found.length > 0) throw new Error(api.redact(found.join('\n')));
      });
      define(api);
    };
    if (targets.length === 1) body();
    else describe(settings.label, body);
  }
}

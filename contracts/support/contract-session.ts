import { appendFileSync } from 'node:fs';
import { afterEach, expect, inject } from 'vitest';
import { type BodyGenerators, createBodyGenerators } from './body-generators.js';
import { requestBodySchema } from './document-facts.js';
import type { ContractRecord, ContractSettings } from '../../src/contract/contract-settings.js';
import {
  type ContractRequest,
  type ContractResponse,
  createHttpClient,
  describeRequest,
} from '../../src/contract/http-client.js';
import { createRedactor } from '../../src/contract/redact.js';
import { judgeReceivedResponse } from '../../src/core/rules/response-rules.js';
import {
  type CompiledDocument,
  type CompiledOperation,
  compileDocument,
} from '../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

export interface CallOptions {
  /** Unspecified behaviour: never fail, record what the target did instead. */
  observe?: boolean;
}

export interface ContractSession {
  settings: ContractSettings;
  compiled: CompiledDocument;
  operation(operationId: string): CompiledOperation;
  /** The operation's path with its parameters filled in, e.g. `/pets/7`. */
  pathOf(operationId: string, params?: Record<string, string | number>): string;
  /** Sends a request for an operation and checks the response against the rules every response follows. */
  call(
    operationId: string,
    request: Omit<ContractRequest, 'method' | 'path'> & { path?: string },
    options?: CallOptions,
  ): Promise<ContractResponse>;
  /** Fails the current check with the message unless the condition holds. */
  verify(condition: boolean, message: string): asserts condition;
  record(kind: ContractRecord['kind'], operationId: string, message: string): void;
  /** Request-body generators for an operation, derived from its schema (free text gets the name prefix). */
  bodies(operationId: string): BodyGenerators;
  /** Ids of the pets this run created, in this file. */
  createdIds: number[];
  redact(text: string): string;
  /** For an observed response: the general rules it breaks (recorded, never failed). */
  problemsOf(response: ContractResponse): string[];
  /** The rule violations seen since the last call. */
  takeProblems(): string[];
}

let session: ContractSession | undefined;

function currentCheckName(): string {
  return expect.getState().currentTestName ?? '(setup)';
}

function createSession(): ContractSession {
  const settings = inject('contract');
  if (!settings) throw new Error('the contract checks must be started by the petstore-contract runner');
  const compiled = compileDocument(loadDocument(defaultDocumentPath));
  const redact = createRedactor(settings.token);
  const send = createHttpClient(settings);
  let problems: string[] = [];
  const createdIds: number[] = [];
  const observedProblems = new WeakMap<ContractResponse, string[]>();

  const operation = (operationId: string): CompiledOperation => {
    const found = compiled.byId.get(operationId);
    if (!found) throw new Error(`openapi.yaml has no operation '${operationId}'`);
    return found;
  };

  const record: ContractSession['record'] = (kind, operationId, message) => {
    const line: ContractRecord = { kind, operationId, check: currentCheckName(), message: redact(message) };
    appendFileSync(settings.recordFile, `${JSON.stringify(line)}\n`);
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
    const response = await send(full);
    const where = `${describeRequest(full)} → ${response.status}`;
    const found = judgeReceivedResponse(compiled, op, {
      status: response.status,
      contentType: response.headers['content-type'],
      text: response.text,
    }).violations.map((violation) => violation.message);
    const body = response.json as { id?: unknown } | undefined;
    if (op.method === 'POST' && response.status === 201 && typeof body?.id === 'number') {
      createdIds.push(body.id);
      const line: ContractRecord = {
        kind: 'created',
        operationId,
        check: currentCheckName(),
        message: `created pet ${body.id}`,
        id: body.id,
      };
      appendFileSync(settings.recordFile, `${JSON.stringify(line)}\n`);
    }
    if (options.observe) {
      observedProblems.set(response, found);
    } else {
      problems.push(...found.map((problem) => `${where}: ${problem}`));
    }
    return response;
  };

  return {
    problemsOf: (response) => observedProblems.get(response) ?? [],
    takeProblems() {
      const found = problems;
      problems = [];
      return found;
    },
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
  };
}

/** The session of this check file: settings from the runner, the compiled document, and a checking client. */
export function useContract(): ContractSession {
  const current = (session ??= createSession());
  // Every response a check saw must follow the general rules, whatever the check itself asserted.
  afterEach(() => {
    const found = current.takeProblems();
    if (found.length > 0) throw new Error(current.redact(found.join('\n')));
  });
  return current;
}

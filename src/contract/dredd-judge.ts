import { describeApi } from '../core/model/describe-api.js';
import { compileDocument } from '../core/openapi/compile-document.js';
import { classifyRequest } from '../core/oracle/classify-request.js';
import { fails } from '../core/oracle/finding.js';
import { judgeExchange } from '../core/oracle/judge-exchange.js';
import { matchRoute } from '../core/pipeline/match-route.js';
import { loadDocument } from '../node/load-document.js';
import { defaultDocumentPath } from '../package-root.js';
import { idOf, idText } from './exact-ids.js';

/** What the Dredd hooks learn from one exchange. */
export interface DreddVerdict {
  /** The oracle's failing findings, one sentence each: they fail the transaction. */
  violations: string[];
  /** Its warnings: reported, never a failure. */
  warnings: string[];
  /** The id of the item the body holds (by the operation's resource), as exact text, when it has one. */
  id: string | undefined;
}

/** The request a transaction sent, as the hooks set it up. */
export interface DreddRequest {
  /** The path and query below the base URL (`/pets/3`, `/pets?limit=20`). */
  uri: string;
  /** The body text sent, if any. */
  body: string | undefined;
  /** The key was sent, or no Authorization header at all. */
  auth: 'token' | 'none';
}

const compiledByPath = new Map<string, ReturnType<typeof compileDocument>>();

export type DreddJudge = (
  operationId: string,
  request: DreddRequest,
  response: { status: number; contentType: string | undefined; text: string; headers?: Record<string, string> },
) => DreddVerdict;

/**
 * The oracle for the Dredd hooks (contracts/dredd-hooks.cjs), which load this
 * module from dist/ in Dredd's process: Dredd's own checks read bodies with
 * JSON.parse, which rounds integers beyond 2^53 and takes 1.0 for an
 * integer, and know nothing of what a request was; these judge each
 * exchange exactly, with the same rules as the contract suite and the proxy.
 */
export function createDreddJudge(documentPath: string = defaultDocumentPath): DreddJudge {
  // A batch of Dredd runs in one process compiles the document once.
  const compiled =
    compiledByPath.get(documentPath) ??
    compileDocument(loadDocument(documentPath), documentPath === defaultDocumentPath ? 'openapi.yaml' : documentPath);
  compiledByPath.set(documentPath, compiled);
  return (operationId, request, response) => {
    const operation = compiled.byId.get(operationId);
    if (!operation)
      return { violations: [`${compiled.source} has no operation '${operationId}'`], warnings: [], id: undefined };
    const question = request.uri.indexOf('?');
    const path = question === -1 ? request.uri : request.uri.slice(0, question);
    let match: ReturnType<typeof matchRoute>;
    try {
      match = matchRoute(compiled, operation.method, path, { basePath: '', path });
    } catch (error) {
      // The plan sent a path that is not its operation's: the hooks and the document disagree.
      return {
        violations: [`${request.uri} is not a path of ${operationId}: ${(error as Error).message}`],
        warnings: [],
        id: undefined,
      };
    }
    const headers: Record<string, string> = {};
    if (request.auth === 'token') headers.authorization = 'Bearer (the key)';
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const classified = classifyRequest({
      operation,
      pathParams: match.pathParams,
      query: question === -1 ? '' : request.uri.slice(question + 1),
      headers,
      body: request.body === undefined ? undefined : new TextEncoder().encode(request.body),
    });
    const judged = judgeExchange(
      compiled,
      { ...classified, credential: request.auth === 'token' ? 'valid' : 'none', scheme: 'Bearer' },
      {
        status: response.status,
        contentType: response.contentType,
        body: response.text,
        headers: Object.fromEntries(Object.entries(response.headers ?? {}).map(([n, v]) => [n.toLowerCase(), v])),
      },
    );
    const { resource } = describeApi(compiled).of(operation);
    const id = resource ? idOf(judged.body, resource) : undefined;
    return {
      violations: judged.findings.filter((found) => fails(found)).map((found) => found.message),
      warnings: judged.findings.filter((found) => found.level === 'warn').map((found) => found.message),
      id: id === undefined ? undefined : idText(id),
    };
  };
}

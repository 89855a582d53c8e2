import { compileDocument } from '../core/openapi/compile-document.js';
import { judgeReceivedResponse } from '../core/rules/response-rules.js';
import { loadDocument } from '../node/load-document.js';
import { defaultDocumentPath } from '../package-root.js';
import { idOf, idText } from './exact-ids.js';

/** What the Dredd hooks learn from one response. */
export interface DreddVerdict {
  /** What the response rules found wrong with it, one sentence each. */
  violations: string[];
  /** The body's `id`, as exact decimal text, when it has an int64 one. */
  id: string | undefined;
}

const compiledByPath = new Map<string, ReturnType<typeof compileDocument>>();

export type DreddJudge = (
  operationId: string,
  response: { status: number; contentType: string | undefined; text: string },
) => DreddVerdict;

/**
 * The response rules for the Dredd hooks (contracts/dredd-hooks.cjs), which
 * load this module from dist/ in Dredd's process: Dredd's own checks read
 * bodies with JSON.parse, which rounds integers beyond 2^53 and takes 1.0 for
 * an integer; these read them exactly, with the same rules as the contract suite.
 */
export function createDreddJudge(documentPath: string = defaultDocumentPath): DreddJudge {
  // A batch of Dredd runs in one process compiles the document once.
  const compiled = compiledByPath.get(documentPath) ?? compileDocument(loadDocument(documentPath));
  compiledByPath.set(documentPath, compiled);
  return (operationId, response) => {
    const { violations, body } = judgeReceivedResponse(compiled, compiled.byId.get(operationId), response);
    const id = idOf(body);
    return {
      violations: violations.map((violation) => violation.message),
      id: id === undefined ? undefined : idText(id),
    };
  };
}

import { compileDocument, type CompiledDocument } from '../../../../src/core/openapi/compile-document.js';
import { createContractSession, type ContractSession } from '../../../../src/contract/contract-session.js';
import { type ContractSettings, defaultPatience } from '../../../../src/contract/contract-settings.js';
import {
  type Exploration,
  type ExplorationOptions,
  exploreDeployment,
} from '../../../../src/contract/explore/explore-deployment.js';
import { createHttpClient } from '../../../../src/contract/http-client.js';
import { createRedactor } from '../../../../src/core/http/redact-credentials.js';
import { loadDocument } from '../../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../../src/package-root.js';

let compiled: CompiledDocument | undefined;

/** A session on a deployment, with the settings a test gives (a small budget, a short settle window). */
export function sessionFor(baseUrl: string, token: string, settings: Partial<ContractSettings> = {}): ContractSession {
  compiled ??= compileDocument(loadDocument(defaultDocumentPath));
  const full: ContractSettings = {
    baseUrl,
    token,
    readOnly: false,
    strict: false,
    timeoutMs: 5_000,
    headers: {},
    namePrefix: 'contract-test-explore-',
    seed: 20301205,
    settleMs: 300,
    budget: 60,
    concurrency: 4,
    durationMs: 0,
    patience: defaultPatience,
    ...settings,
  };
  return createContractSession({
    settings: full,
    compiled,
    send: createHttpClient({ baseUrl, token, timeoutMs: full.timeoutMs, headers: full.headers }),
    redact: createRedactor([token]),
  });
}

/**
 * A clock that stands still, for the exploration's time bounds: how long a busy machine takes over a run does not
 * decide how far it gets (its budget does).
 */
export const stillClock = (): number => 0;

/** The exploration alone against a deployment, its time bounds on a clock that stands still unless told. */
export function exploreAgainst(
  baseUrl: string,
  token: string,
  settings: Partial<ContractSettings> = {},
  options: ExplorationOptions = { boundsClock: stillClock },
): Promise<Exploration> {
  return exploreDeployment(sessionFor(baseUrl, token, settings), options);
}

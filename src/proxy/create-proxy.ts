import type { Mock } from '../create-mock.js';
import type { MockLogger } from '../core/support/mock-logger.js';
import type { HostOptions } from '../core/pipeline/check-host.js';
import type { CorsOptions } from '../core/pipeline/cors-policy.js';
import type { PublicFile } from '../core/pipeline/serve-public-file.js';
import { createNodeMock, type NodeMockOptions } from '../node/create-node-mock.js';
import { createNodeListener } from '../node/node-listener.js';
import { createNodeForwarder, type ForwarderOptions } from './node-forwarder.js';
import { ItemRecording } from './item-recording.js';
import { type FailOn, ProxyReport } from './proxy-report.js';

/** The default of `--settle`: how long a created pet may take to be readable (read-after-write timing is not shown). */
export const defaultSettleMs = 5_000;

export interface ProxyOptions {
  /** The upstream's base address, ending with `/v1`: `https://staging.example/v1`. */
  upstream: string;
  /** Refuse invalid requests (400, not forwarded) and replace answers that fail a rule (502). Default: report only. */
  enforce?: boolean;
  /** Whose findings make the proxy exit 1. Default: the deployment's. */
  failOn?: FailOn;
  /** `warn` findings fail too. */
  strict?: boolean;
  /** How long a created pet may take to be readable before a 404 for it is a lost write, in ms. Default 5 s. */
  settleMs?: number;
  /** How long one whole exchange with the upstream may take, in ms (then 504). Default 30 s. */
  timeoutMs?: number;
  /** Largest request body forwarded, in bytes (then 413, the proxy's own limit). Default 16 MiB. */
  bodyLimit?: number;
  /**
   * Bytes the request bodies being inflated hold together, every request in flight's (then 413, the proxy's own
   * limit, with Retry-After; nothing is forwarded). Default 64 MiB (issue 36).
   */
  maxInflatedBytes?: number;
  /**
   * The forwarder's bounds (see `ForwarderOptions`): answers judged at most, upstream requests pending at most
   * (issue 20), bytes of answers held at once to judge them (issue 27).
   */
  forwarder?: Pick<ForwarderOptions, 'maxJudgedBytes' | 'maxPending' | 'maxBufferedBytes'>;
  /** Keys of the proxy's own admin API (the API's keys are the upstream's to judge). Default `['dev-key']`. */
  keys?: readonly string[];
  /** Files served to anyone (the web pages). */
  publicFiles?: Record<string, PublicFile>;
  // h20b: the browser-facing policy, as for the mock (see MockCoreOptions); the CLI passes the safe one.
  /** Which pages may call the proxy from a browser. Default: any origin (as in-process). */
  cors?: CorsOptions;
  /** Which `Host` names the proxy answers to. Default: no check. */
  hosts?: HostOptions;
  /** Collect the pets of valid answers, to save as a fixture at this path. */
  record?: string;
  /**
   * Headers that partition the deployment's data besides `Petstore-Session`
   * (a tenant header, `x-tenant-id`): the proxy judges each partition's
   * traffic against what that partition showed. Default: none.
   */
  partitionHeaders?: readonly string[];
  /**
   * Judge the traffic of every credential as one store, for a deployment
   * that promises its keys share one. Default false: each credential (held as
   * a salted digest, never itself) is a partition of its own.
   */
  sharedCredentials?: boolean;
  /** The document the traffic is judged by (a file path or an object). Default: the kit's openapi.yaml. */
  document?: NodeMockOptions['document'];
  logger?: MockLogger;
}

export interface Proxy {
  /** The core, with the upstream in place of the handlers. */
  mock: Mock;
  listener: ReturnType<typeof createNodeListener>;
  report: ProxyReport;
  recording: ItemRecording | undefined;
}

/** An upstream the proxy can forward to: http(s), with the spec's `/v1` ending its path. */
export function checkUpstream(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--upstream must be an http(s) URL, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`--upstream must be an http(s) URL, got ${JSON.stringify(text)}`);
  }
  if (!/\/v1\/?$/.test(url.pathname)) {
    throw new Error(
      `--upstream must be the API's base address, ending with /v1 (e.g. https://staging.example/v1), got ${JSON.stringify(text)}`,
    );
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error('--upstream must not carry a query, a fragment or credentials');
  }
  return url;
}

/**
 * The validating proxy: the mock's pipeline with the upstream in place of the
 * handlers. Every request and answer under /v1 is judged by the oracle (the
 * same rules as the contract suite, across exchanges too) and passed on
 * unchanged (or refused, with `enforce`); the report collects the findings,
 * the client's apart from the deployment's, and the coverage; a recording, if
 * asked for, collects pets.
 */
export function createProxy(options: ProxyOptions): Proxy {
  const upstream = checkUpstream(options.upstream);
  const logger = options.logger;
  // The report and the recording read the compiled document, which the mock makes: they come right after it.
  const late: { report?: ProxyReport; recording?: ItemRecording } = {};
  const mock = createNodeMock({
    bodyLimit: options.bodyLimit ?? 16 * 1024 * 1024,
    ...(options.maxInflatedBytes === undefined ? {} : { maxInflatedBytes: options.maxInflatedBytes }),
    ...(options.keys ? { keys: options.keys } : {}),
    ...(options.publicFiles ? { publicFiles: options.publicFiles } : {}),
    // h20b: passed through as they came.
    ...(options.cors ? { cors: options.cors } : {}),
    ...(options.hosts ? { hosts: options.hosts } : {}),
    ...(logger ? { logger } : {}),
    ...(options.document === undefined ? {} : { document: options.document }),
    proxy: {
      forward: createNodeForwarder({
        upstream,
        basePath: '/v1',
        timeoutMs: options.timeoutMs ?? 30_000,
        maxResponseBytes: 64 * 1024 * 1024,
        ...options.forwarder,
      }),
      enforce: options.enforce === true,
      settleMs: options.settleMs ?? defaultSettleMs,
      ...(options.partitionHeaders
        ? { partitionHeaders: options.partitionHeaders.map((name) => name.toLowerCase()) }
        : {}),
      sharedCredentials: options.sharedCredentials === true,
      onExchange: (exchange) => {
        late.report?.add(exchange);
        late.recording?.add(exchange);
      },
      report: () => late.report?.toJson(),
    },
  });
  const report = new ProxyReport({
    compiled: mock.compiled,
    upstream: upstream.href,
    ...(options.failOn ? { failOn: options.failOn } : {}),
    strict: options.strict === true,
    onFinding: (found) => {
      if (found.level === 'observed') logger?.info({ finding: found }, 'observed in the traffic');
      else
        logger?.warn(
          { finding: found },
          `the ${found.side === 'request' ? 'client' : 'deployment'} breaks the document`,
        );
    },
  });
  const recording = options.record ? new ItemRecording(mock.compiled, options.record) : undefined;
  Object.assign(late, { report, recording });
  return { mock, listener: createNodeListener(mock), report, recording };
}

import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A load balancer for tests: each request to the next upstream in turn, as a round-robin balancer does. */
export interface RoundRobin {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `${origin}/v1` */
  baseUrl: string;
  /** The upstreams' origins, in turn; a test may replace one (a replica restarted on another port). */
  upstreams: string[];
  /** How many requests each upstream was sent, by origin. */
  sent: Map<string, number>;
  close(): Promise<void>;
}

/** What a client sees when the upstream it was sent to is gone: a 502 Error body, as a balancer answers. */
function unreachable(res: ServerResponse, upstream: string, error: Error): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({
    code: 'upstream_unreachable',
    message: `the balancer could not reach ${upstream}: ${error.message}`,
    status: 502,
  });
  res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Starts a balancer on an ephemeral port of 127.0.0.1 that sends each
 * request, whatever its connection, to the next upstream in turn (no
 * stickiness, no retry: a request to a replica that is gone is a 502), as
 * HAProxy's `balance roundrobin` or nginx's default does.
 */
export async function startRoundRobin(upstreams: readonly string[]): Promise<RoundRobin> {
  const turn = { next: 0 };
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const balancer: RoundRobin = {
    origin: '',
    baseUrl: '',
    upstreams: [...upstreams],
    sent: new Map(),
    close: async () => undefined,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = balancer.upstreams[turn.next++ % balancer.upstreams.length] as string;
    balancer.sent.set(upstream, (balancer.sent.get(upstream) ?? 0) + 1);
    const url = new URL(upstream);
    const forwarded = httpRequest(
      { host: url.hostname, port: url.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    forwarded.on('error', (error) => unreachable(res, upstream, error));
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  balancer.origin = `http://127.0.0.1:${port}`;
  balancer.baseUrl = `${balancer.origin}/v1`;
  balancer.close = () =>
    new Promise<void>((resolve) => {
      agent.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return balancer;
}

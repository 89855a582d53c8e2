import { createServer, type AddressInfo, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * What a hostile upstream does with one request, chosen by the request's
 * `X-Hostile` header (the proxy forwards it like any other header).
 */
export const hostileBehaviours = [
  /** A valid answer: a list of one pet. */
  'ok',
  /** `101 Switching Protocols` with Upgrade headers, to a request that asked for no upgrade. */
  'switching-protocols',
  /** `101` without them. */
  'bare-101',
  /** `102 Processing` every 50 ms, never a final answer. */
  'endless-1xx',
  /** Headers, then one byte of the body every 50 ms. */
  'trickle',
  /** Headers and part of the body, then nothing. */
  'headers-then-stall',
  /** Nothing at all. */
  'silent',
  /** A valid gzip answer that inflates to 16 MiB of spaces. */
  'gzip-bomb',
  /** A gzip answer cut short. */
  'truncated-gzip',
  /** Headers and part of the body, then a TCP reset. */
  'reset-mid-body',
  /** A TCP reset before any byte. */
  'reset-at-once',
] as const;

export type HostileBehaviour = (typeof hostileBehaviours)[number];

/** What the proxy must answer to each behaviour: a status, and the Error code when it answers itself. */
export const expectedThroughProxy: Record<HostileBehaviour, { status: number; code?: string }> = {
  ok: { status: 200 },
  'switching-protocols': { status: 502, code: 'upstream_protocol_error' },
  'bare-101': { status: 502, code: 'upstream_protocol_error' },
  'endless-1xx': { status: 504, code: 'upstream_timeout' },
  trickle: { status: 504, code: 'upstream_timeout' },
  'headers-then-stall': { status: 504, code: 'upstream_timeout' },
  silent: { status: 504, code: 'upstream_timeout' },
  'gzip-bomb': { status: 200 },
  'truncated-gzip': { status: 200 },
  'reset-mid-body': { status: 502, code: 'upstream_protocol_error' },
  'reset-at-once': { status: 502, code: 'upstream_unreachable' },
};

export const okBody = '[{"id":1,"name":"Bella","categoryId":1,"status":"available"}]';

let bomb: Buffer | undefined;
/** 16 MiB of spaces, gzipped (about 16 KB): made once. */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20));
  return bomb;
}

const json = 'Content-Type: application/json\r\n';

function answer(socket: Socket, behaviour: HostileBehaviour): void {
  const every = (ms: number, write: () => void): void => {
    const timer = setInterval(() => (socket.writable ? write() : clearInterval(timer)), ms);
    socket.once('close', () => clearInterval(timer));
  };
  switch (behaviour) {
    case 'ok':
      socket.write(`HTTP/1.1 200 OK\r\n${json}Content-Length: ${okBody.length}\r\n\r\n${okBody}`);
      return;
    case 'switching-protocols':
      socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
      return;
    case 'bare-101':
      socket.write('HTTP/1.1 101 Switching Protocols\r\n\r\n');
      return;
    case 'endless-1xx':
      every(50, () => socket.write('HTTP/1.1 102 Processing\r\n\r\n'));
      return;
    case 'trickle':
      socket.write(`HTTP/1.1 200 OK\r\n${json}Content-Length: 100000\r\n\r\n[`);
      every(50, () => socket.write(' '));
      return;
    case 'headers-then-stall':
      socket.write(`HTTP/1.1 200 OK\r\n${json}Content-Length: 500\r\n\r\n[{"id":1,`);
      return;
    case 'silent':
      return;
    case 'gzip-bomb': {
      const body = gzipBomb();
      socket.write(`HTTP/1.1 200 OK\r\n${json}Content-Encoding: gzip\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.write(body);
      return;
    }
    case 'truncated-gzip': {
      const zipped = gzipSync(okBody);
      const cut = zipped.subarray(0, zipped.length - 10);
      socket.write(`HTTP/1.1 200 OK\r\n${json}Content-Encoding: gzip\r\nContent-Length: ${cut.length}\r\n\r\n`);
      socket.write(cut);
      return;
    }
    case 'reset-mid-body':
      socket.write(`HTTP/1.1 200 OK\r\n${json}Content-Length: 500\r\n\r\n[{"id":1,`, () =>
        setTimeout(() => socket.resetAndDestroy(), 10),
      );
      return;
    case 'reset-at-once':
      socket.resetAndDestroy();
      return;
  }
}

export interface HostileUpstream {
  /** `http://127.0.0.1:PORT/v1`, for `--upstream`. */
  url: string;
  /** Connections open now (each request that misbehaves keeps its own until the proxy lets it go). */
  openConnections(): number;
  close(): Promise<void>;
}

/**
 * A raw TCP upstream on 127.0.0.1 that answers each request as its
 * `X-Hostile` header asks (`ok` without one). Keep-alive: after an `ok`,
 * `gzip-bomb` or `truncated-gzip` answer the connection takes the next request.
 */
export async function startHostileUpstream(): Promise<HostileUpstream> {
  // Made now, not while a request waits for it.
  gzipBomb();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      // One request at a time, without a body (the soak and the property test send GETs).
      for (let end = head.indexOf('\r\n\r\n'); end !== -1; end = head.indexOf('\r\n\r\n')) {
        const request = head.slice(0, end);
        head = head.slice(end + 4);
        const named = /^x-hostile:\s*(\S+)/im.exec(request)?.[1] ?? 'ok';
        const behaviour = (hostileBehaviours as readonly string[]).includes(named) ? (named as HostileBehaviour) : 'ok';
        answer(socket, behaviour);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    openConnections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

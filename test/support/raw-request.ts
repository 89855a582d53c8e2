import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request with exactly the headers given, `Host` included (fetch sets
 * `Host` itself): what a browser sends for a page under another name.
 */
export function requestWithHost(
  url: string,
  options: { method?: string; headers: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers: options.headers,
        setHost: false,
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** Writes `text` to the port as it is and resolves with everything the server sends until it closes. */
export function sendRaw(url: string, text: string): Promise<string> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname, () => socket.write(text));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no end of answer: ${received}`)));
  });
}

import { HttpError } from '../errors/http-error.js';
import { oneValue, type PlainRequest } from '../http/plain-http.js';

/**
 * Which `Host` names the mock answers to, against DNS rebinding: a page on
 * `http://evil.example:4010` whose name the attacker re-points at 127.0.0.1
 * is same-origin with the mock in the browser's eyes, so CORS cannot stop it;
 * only the name it sends as `Host` gives it away. Loopback names are always
 * answered (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`, any port).
 */
export interface HostOptions {
  /**
   * Names answered besides loopback ones: exact (`mock.team.internal`, an IP
   * address), or a leading dot for a domain and all its subdomains (`.team.internal`).
   */
  allowed?: readonly string[];
  /** Answer any IP address as `Host`: the mock listens on every address (`0.0.0.0`, `::`). An address is no name DNS can re-point. */
  anyAddress?: boolean;
  /** Answer any `Host` (`--allowed-host all`): no protection against DNS rebinding. */
  any?: boolean;
}

/** Throws `403 host_not_allowed` (or `400 host_required`) for a request the mock must not answer. */
export type HostCheck = (request: PlainRequest) => void;

/** `name`, `name:port`, `[v6]` or `[v6]:port`: what a `Host` header may hold (RFC 9110 §7.2, DNS names). */
const hostSyntax = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/;

/**
 * The name in a `Host` header (or a host given on the command line), in the
 * form the URL standard writes it: lower case, IP addresses canonical
 * (`127.1` is `127.0.0.1`, `[0:0::1]` is `[::1]`), without a port or a
 * trailing dot. Undefined for anything that is not a host, such as
 * `evil.example@localhost`.
 */
export function canonicalHostName(text: string): string | undefined {
  const match = hostSyntax.exec(text.trim());
  if (!match) return undefined;
  let hostname: string;
  try {
    hostname = new URL(`http://${match[1] as string}/`).hostname;
  } catch {
    return undefined;
  }
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

/** Whether a canonical name is an IP address rather than a name DNS resolves. */
export function isIpAddress(name: string): boolean {
  return name.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(name);
}

/**
 * Whether a canonical name reaches only this machine: `localhost` and its
 * subdomains (RFC 6761; browsers resolve them to loopback themselves),
 * 127.0.0.0/8 (the whole block is loopback, RFC 1122), `[::1]`, and
 * 127.0.0.0/8 mapped into IPv6. None of them can be re-pointed by DNS.
 */
export function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(name) ||
    name === '[::1]' ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(name)
  );
}

/** The refusal of a request without `Host`, which HTTP/1.1 requires; the Node server sends it too (create-server.ts). */
export function missingHost(): HttpError {
  return new HttpError(
    'host_required',
    'the request has no Host header, which HTTP/1.1 requires (RFC 9112, section 3.2)',
  );
}

/** How a refused or missing `Host` is shown in a message: quoted, and short. */
function shown(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

/**
 * The check of the `Host` header, run before anything else answers. A request
 * without one is refused with `400 host_required` (HTTP/1.1 requires it, RFC
 * 9112 §3.2, and a request that does not say which name it is for cannot be
 * judged); one naming a host the mock does not answer to with `403
 * host_not_allowed`, as Vite and webpack-dev-server answer, and nothing is
 * changed. Throws `TypeError` for an allowed name that is not a host name.
 */
export function createHostCheck(options: HostOptions): HostCheck {
  const exact = new Set<string>();
  const domains: string[] = [];
  for (const given of options.allowed ?? []) {
    const domain = given.startsWith('.');
    // A bare IPv6 address (`fd00::5`) as the bracketed one a Host header carries.
    const text = /:.*:/.test(given) && !given.startsWith('[') ? `[${given}]` : given;
    const name = canonicalHostName(domain ? text.slice(1) : text);
    if (name === undefined || /:\d+$/.test(text.replace(/^\[.*\]/, ''))) {
      throw new TypeError(`an allowed host must be a host name or address without a port, got ${shown(given)}`);
    }
    if (domain) domains.push(name);
    else exact.add(name);
  }
  const answers = (name: string): boolean =>
    isLoopbackName(name) ||
    exact.has(name) ||
    (options.anyAddress === true && isIpAddress(name)) ||
    domains.some((domain) => name === domain || name.endsWith(`.${domain}`));
  // The Host values answered, as sent: a client sends the same one with every request, and reading it as a URL
  // costs more than the rest of the check. Only answered values are kept, and only a few of them.
  const answered = new Set<string>();
  // The last value answered, compared before the set is asked: comparing costs less than a new string's hash.
  let recent: string | undefined;
  return function checkHost(request) {
    const sent = oneValue(request.headers.host);
    if (sent !== undefined && sent === recent) return;
    if (sent === undefined || sent.trim() === '') throw missingHost();
    if (options.any === true) return;
    if (answered.has(sent)) {
      recent = sent;
      return;
    }
    const name = canonicalHostName(sent);
    if (name !== undefined && answers(name)) {
      if (answered.size < 64) answered.add(sent);
      recent = sent;
      return;
    }
    throw new HttpError(
      'host_not_allowed',
      `the mock does not answer to the host ${shown(sent)}: it answers loopback names (localhost, 127.0.0.1, [::1]) and the address it listens on, so that a DNS-rebinding page cannot reach it; allow a name with --allowed-host NAME`,
    );
  };
}

import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import type { PlainRequest } from '../../../src/core/http/plain-http.js';
import {
  canonicalHostName,
  createHostCheck,
  isLoopbackName,
  type HostOptions,
} from '../../../src/core/pipeline/check-host.js';
import { caught } from '../../support/caught.js';

const withHost = (host: string | undefined): PlainRequest => ({
  method: 'GET',
  path: '/v1/pets',
  query: '',
  headers: host === undefined ? {} : { host },
});

/** The HttpError the check throws for a Host header. */
function refusal(options: HostOptions, host: string | undefined): HttpError {
  return caught(HttpError, () => createHostCheck(options)(withHost(host)), JSON.stringify(host));
}
const answers = (options: HostOptions, host: string): boolean => {
  try {
    createHostCheck(options)(withHost(host));
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return false;
  }
};

describe('canonicalHostName', () => {
  it.each([
    ['localhost:4010', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['localhost.', 'localhost'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['[::1]:4010', '[::1]'],
    ['[0:0:0:0:0:0:0:1]', '[::1]'],
    ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]'],
    ['Mock.Team.Internal:8080', 'mock.team.internal'],
  ])('writes %j as %j', (text, name) => {
    expect(canonicalHostName(text)).toBe(name);
  });

  it.each(['evil.example@localhost', 'localhost/x', 'local host', '[::1', 'localhost:port', '', 'a:1:2'])(
    'finds no host in %j',
    (text) => {
      expect(canonicalHostName(text)).toBeUndefined();
    },
  );
});

describe('isLoopbackName', () => {
  it.each(['localhost', 'app.localhost', '127.0.0.1', '127.255.0.9', '[::1]', '[::ffff:7f00:1]'])(
    'counts %s as loopback',
    (name) => {
      expect(isLoopbackName(name)).toBe(true);
    },
  );

  it.each(['localhost.example', 'notlocalhost', '128.0.0.1', '10.0.0.1', '[::2]', '[::ffff:a00:1]', '0.0.0.0'])(
    'does not count %s as loopback',
    (name) => {
      expect(isLoopbackName(name)).toBe(false);
    },
  );
});

describe('createHostCheck', () => {
  it.each(['localhost:4010', 'localhost', 'app.localhost:5173', '127.0.0.1:4010', '127.0.0.2', '[::1]:4010'])(
    'answers the loopback host %j by default',
    (host) => {
      expect(answers({}, host)).toBe(true);
    },
  );

  it.each(['rebind.test:4010', 'evil.example', '192.168.1.20:4010', 'localhost.evil.example', 'evil@localhost'])(
    'refuses the host %j with 403 host_not_allowed, naming it and the flag that allows a name',
    (host) => {
      const error = refusal({}, host);
      expect(error.status).toBe(403);
      expect(error.code).toBe('host_not_allowed');
      expect(error.message).toContain(JSON.stringify(host));
      expect(error.message).toContain('--allowed-host');
    },
  );

  it('refuses a request without Host, or with an empty one, with 400 host_required', () => {
    for (const host of [undefined, '', '  ']) {
      const error = refusal({}, host);
      expect(error.status).toBe(400);
      expect(error.code).toBe('host_required');
    }
    expect(refusal({ any: true }, undefined).code).toBe('host_required');
  });

  it('answers the names it is told, exactly or as a domain with its subdomains, in any case', () => {
    const options = { allowed: ['mock.team.internal', '.staging.example', '10.0.0.5', 'fd00::5'] };
    expect(answers(options, 'mock.team.internal:4010')).toBe(true);
    expect(answers(options, 'MOCK.team.internal')).toBe(true);
    expect(answers(options, 'staging.example')).toBe(true);
    expect(answers(options, 'a.b.staging.example:80')).toBe(true);
    expect(answers(options, '10.0.0.5:4010')).toBe(true);
    expect(answers(options, '[fd00::5]:4010')).toBe(true);
    expect(answers(options, 'other.team.internal')).toBe(false);
    expect(answers(options, 'mock.team.internal.evil.example')).toBe(false);
    expect(answers(options, 'evilstaging.example')).toBe(false);
    expect(answers(options, '10.0.0.6')).toBe(false);
  });

  it('judges each request by its own Host, whatever the one before it was', () => {
    const check = createHostCheck({});
    const refused = (host: string | undefined) => caught(HttpError, () => check(withHost(host)), String(host));
    check(withHost('localhost:4010'));
    check(withHost('localhost:4010'));
    expect(refused('rebind.test:4010').code).toBe('host_not_allowed');
    check(withHost('localhost:4010'));
    expect(refused(undefined).code).toBe('host_required');
    expect(refused('localhost.evil.example').code).toBe('host_not_allowed');
    check(withHost('127.0.0.1:4010'));
    expect(refused('').code).toBe('host_required');
  });

  it('answers any IP address when listening on every address, but still no name', () => {
    expect(answers({ anyAddress: true }, '192.168.1.20:4010')).toBe(true);
    expect(answers({ anyAddress: true }, '[fe80::1]:4010')).toBe(true);
    expect(answers({ anyAddress: true }, 'rebind.test:4010')).toBe(false);
    expect(answers({}, '192.168.1.20:4010')).toBe(false);
  });

  it('answers any host when the check is off, but still requires one', () => {
    expect(answers({ any: true }, 'rebind.test:4010')).toBe(true);
    expect(answers({ any: true }, '')).toBe(false);
  });

  it('refuses, at creation, an allowed host that is not one or carries a port', () => {
    for (const given of ['mock.team.internal:4010', 'http://mock.team.internal', '[::1]:80', 'a b', '']) {
      expect(() => createHostCheck({ allowed: [given] }), given).toThrow(TypeError);
    }
  });

  it('shortens a long refused host in its message', () => {
    const error = refusal({}, `${'a'.repeat(300)}.example`);
    expect(error.message.length).toBeLessThan(500);
  });
});

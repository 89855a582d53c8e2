import { describe, expect, it } from 'vitest';
import { keySegment } from '../../src/redis/key-segment.js';
import { redactedUrl, scrub, secretsOf } from '../../src/redis/redacted-url.js';

describe('a store URL as the kit prints it', () => {
  it('keeps the scheme, user, host, port and database, and drops the password', () => {
    expect(redactedUrl('redis://:s3cret@cache.internal:6380/2')).toBe('redis://cache.internal:6380/2');
    expect(redactedUrl('rediss://app:s3cret@cache.internal')).toBe('rediss://app@cache.internal');
    expect(redactedUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactedUrl('not a url :secret@')).toBe('(a store URL that is not one)');
  });

  it('scrubs a message of the password, as written and decoded', () => {
    const url = 'redis://:p%40ss@host';
    expect(secretsOf(url)).toEqual(['p%40ss', 'p@ss']);
    expect(scrub('AUTH p@ss failed; p%40ss', secretsOf(url))).toBe('AUTH [redacted] failed; [redacted]');
    expect(secretsOf('redis://host')).toEqual([]);
  });
});

describe('a name as a key segment', () => {
  it('is itself when it is a valid session name, and hex otherwise, so that no name reaches another’s keys', () => {
    expect(keySegment('worker-3.a_b')).toBe('worker-3.a_b');
    expect(keySegment('__proto__')).toBe('__proto__');
    expect(keySegment('a:b')).toBe(`~${Buffer.from('a:b').toString('hex')}`);
    expect(keySegment('zoë')).toBe(`~${Buffer.from('zoë').toString('hex')}`);
    expect(keySegment('x'.repeat(65))).toMatch(/^~/);
  });
});

import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import type { PlainRequest } from '../../../src/core/http/plain-http.js';
import { readBody, tooLarge } from '../../../src/core/pipeline/read-body.js';

const request = (body: PlainRequest['body']): PlainRequest => ({
  method: 'POST',
  path: '/v1/pets',
  query: '',
  headers: {},
  ...(body === undefined ? {} : { body }),
});

describe('readBody', () => {
  it('reads nothing from a request without a body, at once', () => {
    expect(readBody(request(undefined), 10)).toBeUndefined();
  });

  it('takes bytes up to the limit as they are, at once (no promise)', () => {
    const bytes = new Uint8Array(10);
    expect(readBody(request(bytes), 10)).toBe(bytes);
  });

  it('refuses bytes beyond the limit with 413 payload_too_large naming the limit', () => {
    let error: unknown;
    try {
      readBody(request(new Uint8Array(11)), 10);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 413,
      code: 'payload_too_large',
      message: 'the body is larger than the limit of 10 bytes',
    });
  });

  it('hands the limit to a reader, so that it can stop reading there, and passes on what it refuses', async () => {
    const limits: number[] = [];
    const reader = async (limit: number) => {
      limits.push(limit);
      throw tooLarge(limit);
    };
    await expect(readBody(request(reader), 1234)).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(limits).toEqual([1234]);
  });

  it('returns what a reader read', async () => {
    const bytes = new TextEncoder().encode('{}');
    await expect(
      readBody(
        request(async () => bytes),
        10,
      ),
    ).resolves.toBe(bytes);
  });
});

import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import { errorBodyFor, toErrorResponse } from '../../../src/core/errors/to-error-response.js';

/** A pino logger that keeps its lines in memory, parsed. */
function memoryLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('toErrorResponse', () => {
  it('turns an HttpError into an Error body with its code, message and status, and logs nothing', () => {
    const { logger, lines } = memoryLogger();
    const result = toErrorResponse(new HttpError('pet_not_found', 'no pet has id 42'), logger);
    expect(result).toEqual({
      status: 404,
      headers: {},
      body: { code: 'pet_not_found', message: 'no pet has id 42', status: 404 },
    });
    expect(lines).toEqual([]);
  });

  it('adds the details of an HttpError that has them', () => {
    const details = [{ location: 'body', field: 'categoryId', message: 'is required', keyword: 'required' }];
    const result = toErrorResponse(
      new HttpError('invalid_body', "body field 'categoryId' is required", { details }),
      memoryLogger().logger,
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: 'invalid_body',
      message: "body field 'categoryId' is required",
      status: 400,
      details,
    });
  });

  it('leaves details out of the body when the HttpError has none', () => {
    const result = toErrorResponse(new HttpError('unauthorized', 'no key'), memoryLogger().logger);
    expect(result.body).not.toHaveProperty('details');
  });

  it('passes on the headers of an HttpError, such as Allow or WWW-Authenticate', () => {
    const result = toErrorResponse(
      new HttpError('method_not_allowed', 'DELETE is not allowed', { headers: { allow: 'GET, POST' } }),
      memoryLogger().logger,
    );
    expect(result.status).toBe(405);
    expect(result.headers).toEqual({ allow: 'GET, POST' });
  });

  it('answers an unexpected error with 500 internal_error, without its message or stack', () => {
    const { logger } = memoryLogger();
    const error = new Error('connection string postgres://admin:hunter2@db');
    const result = toErrorResponse(error, logger);
    expect(result).toEqual({
      status: 500,
      body: { code: 'internal_error', message: 'the mock failed unexpectedly; its log has the cause', status: 500 },
    });
    const sent = JSON.stringify(result);
    expect(sent).not.toContain('hunter2');
    const firstFrame = error.stack?.split('\n')[1]?.trim() ?? '';
    expect(firstFrame).toMatch(/^at /);
    expect(sent).not.toContain(firstFrame);
  });

  it('logs an unexpected error at level error with its message and stack', () => {
    const { logger, lines } = memoryLogger();
    const error = new Error('the disk is on fire');
    toErrorResponse(error, logger);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ level: 50, msg: 'unexpected error while answering a request' });
    expect(line?.err).toMatchObject({ type: 'Error', message: 'the disk is on fire' });
    expect(String((line?.err as { stack?: unknown }).stack)).toContain('the disk is on fire');
  });

  it.each([
    ['a string', 'boom'],
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
  ])('answers %s thrown as an error with 500 internal_error, and logs it', (_label, thrown) => {
    const { logger, lines } = memoryLogger();
    const result = toErrorResponse(thrown, logger);
    expect(result.status).toBe(500);
    expect(result.body).toMatchObject({ code: 'internal_error', status: 500 });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(50);
  });

  it('writes the Error body of a code of the catalogue with the status the catalogue gives it', () => {
    expect(errorBodyFor('headers_too_large', 'too big')).toEqual({
      code: 'headers_too_large',
      message: 'too big',
      status: 431,
    });
  });
});

import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readNodeBody } from '../../src/node/read-node-body.js';

/** An IncomingMessage stand-in: a stream with the headers a request would have. */
function incoming(headers: Record<string, string> = {}): PassThrough & { headers: Record<string, string> } {
  return Object.assign(new PassThrough(), { headers });
}

const read = (request: PassThrough & { headers: Record<string, string> }, limit: number) =>
  readNodeBody(request as unknown as IncomingMessage)(limit);

describe('readNodeBody', () => {
  it('reads the whole body, in one buffer, however many chunks it came in', async () => {
    const request = incoming({ 'content-length': '7' });
    const body = read(request, 100);
    request.write('{"a"');
    request.end(':1}');
    expect(Buffer.from(await body).toString()).toBe('{"a":1}');
  });

  it('refuses a Content-Length over the limit before reading a byte, and drains what comes', async () => {
    const request = incoming({ 'content-length': '101' });
    let read_ = 0;
    request.on('data', (chunk: Buffer) => (read_ += chunk.length));
    await expect(read(request, 100)).rejects.toMatchObject({
      status: 413,
      code: 'payload_too_large',
      message: 'the body is larger than the limit of 100 bytes',
    });
    request.end('x'.repeat(101));
    await new Promise((resolve) => request.on('end', resolve));
    expect(read_).toBe(101);
  });

  it('refuses a body without Content-Length as soon as it grows beyond the limit, keeping none of the rest', async () => {
    const request = incoming({ 'transfer-encoding': 'chunked' });
    const body = read(request, 10);
    request.write('x'.repeat(8));
    request.write('x'.repeat(8));
    await expect(body).rejects.toMatchObject({ code: 'payload_too_large' });
    request.end('y'.repeat(1000));
  });

  it('takes a body exactly as large as the limit', async () => {
    const request = incoming({ 'content-length': '10' });
    const body = read(request, 10);
    request.end('0123456789');
    expect((await body).length).toBe(10);
  });

  it.each([
    ['shorter', '5', '{"a"'],
    ['longer', '3', '{"a"'],
  ])('answers 400 request_aborted to a body %s than its Content-Length', async (_case, length, text) => {
    const request = incoming({ 'content-length': length });
    const body = read(request, 100);
    request.end(text);
    await expect(body).rejects.toMatchObject({
      status: 400,
      code: 'request_aborted',
      message: 'the body is shorter or longer than its Content-Length',
    });
  });

  it('answers 400 request_aborted when the client stops sending', async () => {
    const request = incoming({ 'content-length': '100' });
    const body = read(request, 1000);
    request.write('{"name":');
    request.emit('aborted');
    await expect(body).rejects.toMatchObject({
      code: 'request_aborted',
      message: 'the client stopped sending the body',
    });
  });

  it('answers 400 request_aborted when the connection fails', async () => {
    const request = incoming({ 'content-length': '100' });
    const body = read(request, 1000);
    request.emit('error', new Error('ECONNRESET'));
    await expect(body).rejects.toMatchObject({ code: 'request_aborted' });
  });

  it('keeps the body it read when the connection fails afterwards, and the failure throws nowhere', async () => {
    const request = incoming({ 'content-length': '7' });
    const body = read(request, 100);
    request.end('{"a":1}');
    expect(Buffer.from(await body).toString()).toBe('{"a":1}');
    // Without a listener, an 'error' emitted on the stream would be thrown here.
    expect(() => request.emit('error', new Error('ECONNRESET'))).not.toThrow();
    expect(() => request.emit('aborted')).not.toThrow();
    expect(Buffer.from(await body).toString()).toBe('{"a":1}');
  });

  it('answers a body refused for its size once, however much more arrives', async () => {
    const request = incoming({ 'transfer-encoding': 'chunked' });
    const body = read(request, 4);
    const refusals: unknown[] = [];
    body.catch((error: unknown) => refusals.push(error));
    request.write('x'.repeat(5));
    request.write('x'.repeat(5));
    request.emit('aborted');
    request.end('x');
    await new Promise((resolve) => request.on('end', resolve));
    await expect(body).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(refusals).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { NumberLiteral } from '../../../src/core/json/exact-json.js';
import { serialiseResponse } from '../../../src/core/pipeline/serialise-response.js';
import { encodeItem, encodedItem, jsonBytes } from '../../../src/core/store/item-snapshot.js';

const text = (body: Uint8Array | undefined) => new TextDecoder().decode(body);

describe('serialiseResponse', () => {
  it('writes the body as JSON with application/json, no charset, and the byte length', () => {
    const response = serialiseResponse({ status: 200, body: { name: 'Zoë 🐶' } });
    expect(response.status).toBe(200);
    expect(text(response.body)).toBe('{"name":"Zoë 🐶"}');
    // 9 ASCII bytes, 'Zoë ' in 5, the dog in 4, then 2: 20 bytes for 17 characters.
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'content-length': '20' });
    expect(response.body?.length).toBe(20);
  });

  it('writes bigints and number literals digit for digit', () => {
    const body = { id: 9223372036854775807n, categoryId: -9007199254740993n, weight: new NumberLiteral('1.0') };
    expect(text(serialiseResponse({ status: 200, body }).body)).toBe(
      '{"id":9223372036854775807,"categoryId":-9007199254740993,"weight":1.0}',
    );
  });

  it('lower-cases the names of the handler’s own headers', () => {
    const response = serialiseResponse({ status: 405, headers: { Allow: 'GET', 'WWW-Authenticate': 'Bearer' } });
    expect(response.headers).toEqual({ allow: 'GET', 'www-authenticate': 'Bearer' });
  });

  it('sends no body, no Content-Type and no Content-Length for a response without a body', () => {
    expect(serialiseResponse({ status: 204 })).toEqual({ status: 204, headers: {}, body: undefined });
  });

  it('writes a body that is JSON null as null, not as nothing', () => {
    expect(text(serialiseResponse({ status: 200, body: null }).body)).toBe('null');
  });

  it('adds the headers every answer of its operation is sent with, in a new object each time', () => {
    const sentWith = Object.freeze({ 'cache-control': 'no-store', deprecation: '@1700000000' });
    const first = serialiseResponse({ status: 200, headers: { Allow: 'GET' }, body: [] }, sentWith);
    expect(first.headers).toEqual({
      allow: 'GET',
      'content-type': 'application/json',
      'content-length': '2',
      'cache-control': 'no-store',
      deprecation: '@1700000000',
    });
    const second = serialiseResponse({ status: 200, body: [] }, sentWith);
    second.headers['x-request-id'] = 'r2';
    expect(first.headers['x-request-id']).toBeUndefined();
    expect(sentWith).not.toHaveProperty('x-request-id');
  });

  it('answers an item the store has just encoded with the bytes the store made, and writes any other value anew', () => {
    const stored = Object.freeze({ id: 9223372036854775807n, name: 'Zoë', status: 'sold' });
    const bytes = encodeItem(stored);
    expect(text(encodedItem(stored))).toBe('{"id":9223372036854775807,"name":"Zoë","status":"sold"}');
    expect(bytes.length).toBe(jsonBytes(stored));
    const answered = serialiseResponse({ status: 201, body: stored });
    expect(answered.body).toBe(bytes);
    expect(text(answered.body)).toBe('{"id":9223372036854775807,"name":"Zoë","status":"sold"}');
    expect(answered.headers['content-length']).toBe(String(bytes.length));
    // An equal object that is not the item measured is not taken for it: its own fields are written.
    const other = { id: 9223372036854775807n, name: 'Zoë', status: 'available' };
    expect(encodedItem(other)).toBeUndefined();
    expect(text(serialiseResponse({ status: 200, body: other }).body)).toBe(
      '{"id":9223372036854775807,"name":"Zoë","status":"available"}',
    );
    // Once another item is encoded, the first is written anew, to the same text.
    encodeItem(Object.freeze({ id: 1 }));
    expect(encodedItem(stored)).toBeUndefined();
    expect(text(serialiseResponse({ status: 201, body: stored }).body)).toBe(
      '{"id":9223372036854775807,"name":"Zoë","status":"sold"}',
    );
  });
});

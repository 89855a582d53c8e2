import { describe, expect, it } from 'vitest';
import { isJsonMediaType, mediaTypeEssence, parseMediaType } from '../../../src/core/http/media-type.js';

describe('parseMediaType', () => {
  it('reads a bare media type as its lower-case essence with no parameters', () => {
    expect(parseMediaType('Application/JSON')).toEqual({ essence: 'application/json', parameters: {} });
  });

  it('reads every parameter, names in lower case, values as sent without their quotes', () => {
    expect(parseMediaType(' text/plain ; Charset="UTF-8";format=flowed ')).toEqual({
      essence: 'text/plain',
      parameters: { charset: 'UTF-8', format: 'flowed' },
    });
  });

  it('skips parts that are no parameter (empty, or without a name or an equals sign)', () => {
    expect(parseMediaType('application/json;;charset=utf-8; =x; flag')).toEqual({
      essence: 'application/json',
      parameters: { charset: 'utf-8' },
    });
  });

  it('reads a missing or empty header as an empty essence', () => {
    expect(parseMediaType(undefined)).toEqual({ essence: '', parameters: {} });
    expect(parseMediaType(';charset=utf-8')).toEqual({ essence: '', parameters: { charset: 'utf-8' } });
  });

  it('keeps an equals sign inside a value', () => {
    expect(parseMediaType('multipart/form-data; boundary=a=b').parameters).toEqual({ boundary: 'a=b' });
  });
});

describe('isJsonMediaType', () => {
  it.each(['application/json', 'Application/Json; charset=utf-8', 'application/problem+json'])(
    'takes %s as JSON',
    (header) => expect(isJsonMediaType(header)).toBe(true),
  );

  it.each(['text/json', 'application/jsonx', 'application/+json', 'application/x/y+json', '', undefined])(
    'does not take %s as JSON',
    (header) => expect(isJsonMediaType(header)).toBe(false),
  );

  it('names the essence alone', () => {
    expect(mediaTypeEssence('Application/JSON; charset=utf-8')).toBe('application/json');
  });
});

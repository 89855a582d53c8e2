import { describe, expect, it } from 'vitest';
import { HttpError, maxDetails, maxMessageLength } from '../../../src/core/errors/http-error.js';
import { errorBody } from '../../../src/core/errors/to-error-response.js';

describe('an Error body that echoes its input', () => {
  it('keeps the start and the end of a message that echoes 1 MB, and says how much it left out', () => {
    const input = 'x'.repeat(1_000_000);
    const error = new HttpError('scenario_not_found', `no scenario is named '${input}'; see GET /__admin/scenarios`);
    expect(error.message.length).toBeLessThanOrEqual(maxMessageLength);
    expect(error.message).toMatch(
      /^no scenario is named 'x+… \[\d+ characters left out\] …x+'; see GET \/__admin\/scenarios$/,
    );
    const shown = error.message.length - error.message.match(/… \[\d+ characters left out\] …/)![0].length;
    const left = Number(/\[(\d+) characters/.exec(error.message)?.[1]);
    expect(shown + left).toBe(`no scenario is named '${input}'; see GET /__admin/scenarios`.length);
  });

  it('bounds the field and message of each detail, and how many details it lists', () => {
    const details = Array.from({ length: 500 }, (_, index) => ({
      location: 'query',
      field: `${'f'.repeat(100_000)}${index}`,
      message: `must be an integer, got "${'v'.repeat(100_000)}"`,
    }));
    const body = errorBody(
      new HttpError('invalid_parameter', 'query parameters are invalid (and 499 more problems)', { details }),
    );
    expect(body.details).toHaveLength(maxDetails);
    expect(JSON.stringify(body).length).toBeLessThan(maxDetails * 1_000);
    expect(body.details?.[0]?.field).toMatch(/^f+… \[\d+ characters left out\] …f+0$/);
  });

  it('leaves a message within the bound as it is', () => {
    expect(new HttpError('route_not_found', 'nothing is served at GET /x').message).toBe('nothing is served at GET /x');
  });

  it('never splits a character in two', () => {
    const error = new HttpError('invalid_body', '😀'.repeat(5_000));
    expect(error.message).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

import { HttpError } from '../errors/http-error.js';
import { JsonSyntaxError, parseExactJson } from '../json/exact-json.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Parses a JSON request body without losing anything the client sent:
 * integers are kept exactly (bigint beyond 2^53−1), `1.0` stays a decimal
 * literal (so an integer field refuses it), invalid UTF-8, a syntax error or
 * a key repeated with another value is a 400, never silently repaired.
 * `__proto__` keys stay plain data.
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new HttpError('invalid_json', 'the body is not valid UTF-8');
  }
  try {
    return parseExactJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new HttpError('invalid_json', `the body is not valid JSON: ${error.message}`);
    }
    if (error instanceof RangeError) throw new HttpError('invalid_json', 'the body nests arrays or objects too deeply');
    throw error;
  }
}

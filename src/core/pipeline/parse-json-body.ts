import { isLosslessNumber, isSafeNumber, parse } from 'lossless-json';
import { HttpError, type ErrorDetail } from '../errors/http-error.js';
import { pointerToField } from '../errors/from-ajv-errors.js';
import { escapePointerSegment } from '../openapi/resolve-ref.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Replaces lossless numbers by plain numbers in place, noting every one that would be rounded. */
function toPlainNumbers(value: unknown, pointer: string, imprecise: ErrorDetail[]): unknown {
  if (isLosslessNumber(value)) {
    if (isSafeNumber(value.value)) return Number(value.value);
    const shown = value.value.length > 40 ? `${value.value.slice(0, 40)}…` : value.value;
    imprecise.push({
      location: 'body',
      field: pointerToField(pointer),
      message: `is ${shown}, which a JSON number cannot hold exactly (integers must lie within ±(2^53-1))`,
      keyword: 'format',
    });
    return value;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      value[index] = toPlainNumbers(item, `${pointer}/${index}`, imprecise);
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      const converted = toPlainNumbers(
        (value as Record<string, unknown>)[key],
        `${pointer}/${escapePointerSegment(key)}`,
        imprecise,
      );
      // defineProperty, not assignment: a `__proto__` key must stay plain data.
      Object.defineProperty(value, key, { value: converted, writable: true, enumerable: true, configurable: true });
    }
  }
  return value;
}

/**
 * Parses a JSON request body without losing anything the client sent: invalid
 * UTF-8, a syntax error, a key repeated with another value, or a number that a JSON number cannot
 * hold exactly (an integer beyond 2^53, too many digits) is a 400, never
 * silently repaired, rounded or dropped. `__proto__` keys stay plain data.
 */
export function parseJsonBody(bytes: Buffer): unknown {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new HttpError('invalid_json', 'the body is not valid UTF-8');
  }
  let value: unknown;
  const imprecise: ErrorDetail[] = [];
  try {
    value = toPlainNumbers(parse(text), '', imprecise);
  } catch (error) {
    if (error instanceof RangeError) throw new HttpError('invalid_json', 'the body nests arrays or objects too deeply');
    throw new HttpError('invalid_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
  const [first] = imprecise;
  if (first) {
    throw new HttpError('imprecise_number', `body field '${first.field || '(root)'}' ${first.message}`, {
      details: imprecise,
    });
  }
  return value;
}

import { NumberLiteral, toInt64 } from '../json/exact-json.js';
import type { CompiledParameter } from './compile-document.js';

export type Coerced = { ok: true; value: unknown } | { ok: false; problem: string };

const integerPattern = /^-?\d+$/;
const numberPattern = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * An integer's text as its exact value, whatever its size (the schema's format
 * and bounds judge it next: int64 is −2^63..2^63−1). Leading zeros are not
 * digits of the value: `007` is 7, in a path as in Java's or Go's parsers.
 */
function exactInteger(text: string): unknown {
  const digits = text.charCodeAt(text[0] === '-' ? 1 : 0) === 48 ? text.replace(/^(-?)0+(?=\d)/, '$1') : text;
  return toInt64(digits) ?? new NumberLiteral(digits);
}

function coerceScalar(type: string | undefined, text: string): Coerced {
  switch (type) {
    case 'integer':
      if (!integerPattern.test(text)) return { ok: false, problem: `must be an integer, got ${JSON.stringify(text)}` };
      return { ok: true, value: exactInteger(text) };
    case 'number':
      if (!numberPattern.test(text)) return { ok: false, problem: `must be a number, got ${JSON.stringify(text)}` };
      return { ok: true, value: integerPattern.test(text) ? exactInteger(text) : new NumberLiteral(text) };
    case 'boolean':
      if (text === 'true') return { ok: true, value: true };
      if (text === 'false') return { ok: true, value: false };
      return { ok: false, problem: `must be true or false, got ${JSON.stringify(text)}` };
    default:
      return { ok: true, value: text };
  }
}

/**
 * Turns the text values of one parameter into the value its schema describes,
 * strictly and exactly: `12` is an integer, but `12.0`, `0x0c`, ` 12` and
 * `1e1` are not; an integer of any size is kept exactly (a bigint beyond
 * 2^53−1, a literal beyond int64) for the schema to judge, never rounded. A parameter given more times than its schema allows is a problem,
 * never a silent pick of one value.
 */
export function coerceParameter(parameter: CompiledParameter, values: readonly string[]): Coerced {
  const { shape } = parameter;
  if (shape.type === 'array') {
    const items = parameter.explode ? values : values.flatMap((value) => value.split(','));
    const coerced: unknown[] = [];
    for (const item of items) {
      const result = coerceScalar(shape.itemType, item);
      if (!result.ok) return result;
      coerced.push(result.value);
    }
    return { ok: true, value: coerced };
  }
  if (values.length > 1) return { ok: false, problem: `must be given once, got ${values.length} values` };
  return coerceScalar(shape.type, values[0] ?? '');
}

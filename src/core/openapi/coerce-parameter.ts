import { isSafeNumber } from 'lossless-json';
import type { CompiledParameter } from './compile-document.js';

export type Coerced = { ok: true; value: unknown } | { ok: false; problem: string };

const integerPattern = /^-?\d+$/;
const numberPattern = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function coerceScalar(type: string | undefined, text: string): Coerced {
  switch (type) {
    case 'integer':
      if (!integerPattern.test(text)) return { ok: false, problem: `must be an integer, got ${JSON.stringify(text)}` };
      if (!isSafeNumber(text)) {
        return { ok: false, problem: `must be an integer between -(2^53-1) and 2^53-1, got ${text}` };
      }
      return { ok: true, value: Number(text) };
    case 'number':
      if (!numberPattern.test(text)) return { ok: false, problem: `must be a number, got ${JSON.stringify(text)}` };
      if (!isSafeNumber(text)) return { ok: false, problem: `cannot be held exactly as a JSON number: ${text}` };
      return { ok: true, value: Number(text) };
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
 * strictly: `12` is an integer, but `12.0`, `0x0c`, ` 12` and `1e1` are not,
 * and an integer that a JSON number cannot hold exactly is refused rather than
 * rounded. A parameter given more times than its schema allows is a problem,
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

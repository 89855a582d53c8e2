/**
 * The reference deployment's own JSON reader and writer, written by hand so
 * that it shares nothing with the kit's exact JSON (src/core/json/): numbers
 * come back as `NumberToken`s holding the text as it was written, so that the
 * server can tell `1` from `1.0` and keep 9223372036854775807 exactly; bigints
 * are written as their digits.
 */
export class NumberToken {
  constructor(readonly raw: string) {}
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const maxDepth = 200;

export function parsePlainJson(text: string): unknown {
  let at = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${at}`);
  };
  const skipSpace = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at += 1;
  };
  const readString = (): string => {
    const start = at;
    at += 1;
    while (at < text.length && text.charAt(at) !== '"') {
      if (text.charCodeAt(at) < 0x20) fail('control character in a string');
      at += text.charAt(at) === '\\' ? 2 : 1;
    }
    if (at >= text.length) fail('unterminated string');
    at += 1;
    // A string token alone holds no number: the platform's parser decodes its escapes.
    return JSON.parse(text.slice(start, at)) as string;
  };
  const readValue = (depth: number): unknown => {
    if (depth > maxDepth) fail('nesting too deep');
    skipSpace();
    const char = text.charAt(at);
    if (char === '"') return readString();
    if (char === '{') {
      at += 1;
      const object: Record<string, unknown> = {};
      skipSpace();
      if (text.charAt(at) === '}') {
        at += 1;
        return object;
      }
      for (;;) {
        skipSpace();
        if (text.charAt(at) !== '"') fail('expected a key');
        const key = readString();
        skipSpace();
        if (text.charAt(at) !== ':') fail("expected ':'");
        at += 1;
        Object.defineProperty(object, key, {
          value: readValue(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        skipSpace();
        if (text.charAt(at) === ',') {
          at += 1;
          continue;
        }
        if (text.charAt(at) === '}') {
          at += 1;
          return object;
        }
        fail("expected ',' or '}'");
      }
    }
    if (char === '[') {
      at += 1;
      const array: unknown[] = [];
      skipSpace();
      if (text.charAt(at) === ']') {
        at += 1;
        return array;
      }
      for (;;) {
        array.push(readValue(depth + 1));
        skipSpace();
        if (text.charAt(at) === ',') {
          at += 1;
          continue;
        }
        if (text.charAt(at) === ']') {
          at += 1;
          return array;
        }
        fail("expected ',' or ']'");
      }
    }
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return value;
      }
    }
    numberPattern.lastIndex = at;
    const match = numberPattern.exec(text);
    if (!match) return fail('unexpected character');
    at += match[0].length;
    return new NumberToken(match[0]);
  };
  const value = readValue(0);
  skipSpace();
  if (at !== text.length) fail('unexpected text after the value');
  return value;
}

/** JSON text with bigints as their digits and `NumberToken`s as written. */
export function writePlainJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof NumberToken) return value.raw;
  if (Array.isArray(value)) return `[${value.map(writePlainJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value)
      .filter(([, child]) => child !== undefined)
      .map(([key, child]) => `${JSON.stringify(key)}:${writePlainJson(child)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

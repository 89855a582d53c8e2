import { parse, YAMLParseError } from 'yaml';
import { normaliseInt64 } from './exact-json.js';

/** YAML (or JSON) text that cannot be read; the message is one line naming where and why. */
export class YamlSyntaxError extends Error {
  override name = 'YamlSyntaxError';
}

/** Integers as `Int64` (a bigint only beyond 2^53−1, as exact-json.ts reads JSON), in place. */
function normalise(value: unknown): unknown {
  if (typeof value === 'bigint') return normaliseInt64(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) value[index] = normalise(value[index]);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      Object.defineProperty(record, key, {
        value: normalise(record[key]),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return value;
}

/**
 * The problem as one line: the parser's reason, where it is, and the text of
 * that line (the yaml package's own message goes on over several lines with
 * a drawing of the spot).
 */
function oneLine(error: unknown, text: string): string {
  if (!(error instanceof YAMLParseError)) return ((error as Error).message ?? String(error)).split('\n')[0] ?? '';
  const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  const position = error.linePos?.[0];
  if (!position) return reason;
  const line = text.split(/\r?\n/)[position.line - 1] ?? '';
  const shown = line.length > 80 ? `${line.slice(0, 80)}…` : line;
  return `${reason} at line ${position.line}, column ${position.col}: ${JSON.stringify(shown.trim())}`;
}

/**
 * Parses YAML or JSON without rounding integers (they come back as `Int64`)
 * and without letting a repeated key silently win. Throws `YamlSyntaxError`
 * with a one-line message.
 */
export function parseExactYaml(text: string): unknown {
  let value: unknown;
  try {
    value = parse(text, { intAsBigInt: true, uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    throw new YamlSyntaxError(oneLine(error, text));
  }
  return normalise(value);
}

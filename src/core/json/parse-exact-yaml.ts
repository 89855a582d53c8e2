import type * as Yaml from 'yaml';
import { requireOnDemand } from '../support/require-on-demand.js';
import { normaliseInt64 } from './exact-json.js';

let yamlPackage: typeof Yaml | undefined;

/** The yaml package, loaded the first time a text is parsed: only the Node side reads YAML (files). */
function yaml(): typeof Yaml {
  yamlPackage ??= requireOnDemand<typeof Yaml>('yaml');
  if (!yamlPackage) throw new Error('YAML is read where the kit reads files (Node); pass objects elsewhere');
  return yamlPackage;
}

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
  if (!(error instanceof yaml().YAMLParseError))
    return ((error as Error).message ?? String(error)).split('\n')[0] ?? '';
  const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  const position = error.linePos?.[0];
  if (!position) return reason;
  const line = text.split(/\r?\n/)[position.line - 1] ?? '';
  const shown = line.length > 80 ? `${line.slice(0, 80)}…` : line;
  return `${reason} at line ${position.line}, column ${position.col}: ${JSON.stringify(shown.trim())}`;
}

/** The most values a text's aliases may make it hold once expanded (each alias counted as the whole text). */
export const maxExpandedValues = 10_000_000;
/** Texts shorter than this are left to the parser's own alias limit: their worst expansion is small. */
const checkedFrom = 64 * 1024;

const valueTokens = new Set<string>([
  'scalar',
  'single-quoted-scalar',
  'double-quoted-scalar',
  'block-scalar-header',
  'flow-map-start',
  'flow-seq-start',
  'seq-item-ind',
  'map-value-ind',
]);

/**
 * Refuses, before it is parsed, a text whose aliases could expand it beyond
 * `maxExpandedValues`: the parser's own limit (`maxAliasCount`) applies only
 * once the whole text is parsed, and parsing 2 MB of one wide anchor cost
 * 5.7 s and 1 GB before it refused. Tokens are counted with the lexer (a
 * tenth of the parse's time, no tree): as a bound, every alias counts as
 * much as every value of the text.
 */
function refuseAliasBomb(text: string): void {
  if (text.length < checkedFrom || !text.includes('*')) return;
  let aliases = 0;
  let values = 0;
  const { CST, Lexer } = yaml();
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === 'alias') aliases++;
    else if (type !== null && valueTokens.has(type)) values++;
  }
  const bound = aliases * values;
  if (aliases > 0 && bound > Math.max(maxExpandedValues, 10 * values)) {
    throw new YamlSyntaxError(
      `the text holds ${aliases} aliases among ${values} values: expanded, it could hold ${bound} values, more than the ${maxExpandedValues} the kit reads; it was refused before parsing. Write the repeated parts out, or use fewer aliases`,
    );
  }
}

/**
 * Parses YAML or JSON without rounding integers (they come back as `Int64`)
 * and without letting a repeated key silently win, nor aliases expand it
 * without bound. Throws `YamlSyntaxError` with a one-line message.
 */
export function parseExactYaml(text: string): unknown {
  refuseAliasBomb(text);
  let value: unknown;
  try {
    value = yaml().parse(text, { intAsBigInt: true, uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    throw new YamlSyntaxError(oneLine(error, text));
  }
  return normalise(value);
}

import { describe, expect, it } from 'vitest';
import { parseExactYaml, YamlSyntaxError } from '../../../src/core/json/parse-exact-yaml.js';
import { caught } from '../../support/caught.js';

const problem = (text: string): string =>
  caught(YamlSyntaxError, () => parseExactYaml(text), JSON.stringify(text)).message;

describe('parseExactYaml', () => {
  it('reads YAML and JSON alike', () => {
    expect(parseExactYaml('name: Bella\ntags: [a, b]\n')).toEqual({ name: 'Bella', tags: ['a', 'b'] });
    expect(parseExactYaml('{"name":"Bella","tags":["a","b"]}')).toEqual({ name: 'Bella', tags: ['a', 'b'] });
  });

  it('reads integers as numbers up to 2^53-1 and exactly, as bigints, beyond, wherever they are nested', () => {
    const value = parseExactYaml(
      'small: 9007199254740991\nbig: 9007199254740993\nlist: [-9223372036854775808, 1]\nnested: { max: 9223372036854775807 }\n',
    );
    expect(value).toEqual({
      small: 9007199254740991,
      big: 9007199254740993n,
      list: [-9223372036854775808n, 1],
      nested: { max: 9223372036854775807n },
    });
  });

  it('reads decimals as numbers', () => {
    expect(parseExactYaml('a: 1.5\nb: -0.25\n')).toEqual({ a: 1.5, b: -0.25 });
  });

  it('keeps a __proto__ key as a plain key, touching no prototype', () => {
    const value = parseExactYaml('__proto__: { polluted: 1 }\nname: x\n') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'name']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('names the line, the column and the text of the line in one line', () => {
    const message = problem('description: x\npets: [\n  { id: 1 \n');
    expect(message).toMatch(/ at line \d+, column \d+: ".*"$/);
    expect(message).not.toContain('\n');
  });

  it('refuses a repeated key instead of keeping the last value, naming where the repeat is', () => {
    expect(problem('description: one\nname: a\ndescription: two\n')).toBe(
      'Map keys must be unique at line 3, column 1: "description: two"',
    );
  });

  it('shortens a long line in the message', () => {
    const message = problem(`a: 1\na: ${'x'.repeat(200)}\n`);
    expect(message).toContain(`"a: ${'x'.repeat(77)}…"`);
    expect(message.length).toBeLessThan(200);
  });

  it('refuses a document that expands aliases without end (a billion laughs)', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level <= 8; level++) {
      const previous = String.fromCharCode(96 + level);
      const next = String.fromCharCode(97 + level);
      lines.push(`${next}: &${next} [${Array(10).fill(`*${previous}`).join(', ')}]`);
    }
    expect(() => parseExactYaml(lines.join('\n'))).toThrow(YamlSyntaxError);
  });
});

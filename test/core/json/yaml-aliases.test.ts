import { describe, expect, it } from 'vitest';
import { maxExpandedValues, parseExactYaml, YamlSyntaxError } from '../../../src/core/json/parse-exact-yaml.js';
import { caught } from '../../support/caught.js';

/** A text with one anchor on a flow list of `width` values, and `aliases` aliases of it. */
function wideAnchor(width: number, aliases: number): string {
  const values = Array.from({ length: width }, () => '1').join(',');
  const uses = Array.from({ length: aliases }, (_, index) => `b${index}: *wide`).join('\n');
  return `a: &wide [${values}]\n${uses}\n`;
}

describe('parseExactYaml and aliases', () => {
  it('refuses a wide anchor aliased many times before parsing it, naming the counts', () => {
    // 2 MB: one anchor on a million values, aliased 100 times (5.7 s and 1 GB of parsing before the parser refused).
    const text = wideAnchor(1_000_000, 100);
    const error = caught(YamlSyntaxError, () => parseExactYaml(text), 'a wide anchor');
    expect(error.message).toMatch(
      new RegExp(
        `^the text holds 100 aliases among \\d+ values: expanded, it could hold \\d+ values, more than the ${maxExpandedValues} the kit reads; it was refused before parsing`,
      ),
    );
  });

  it('still reads a large text with a few aliases, and small ones as the parser does', () => {
    const large = wideAnchor(40_000, 3);
    expect(large.length).toBeGreaterThan(64 * 1024);
    const value = parseExactYaml(large) as Record<string, unknown[]>;
    expect(value.b2).toHaveLength(40_000);
    expect(parseExactYaml('base: &b { x: 1 }\ncopy: *b\n')).toEqual({ base: { x: 1 }, copy: { x: 1 } });
  });

  it('leaves the parser’s own limit on small texts: a billion laughs is still refused', () => {
    const laughs = [
      'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ].join('\n');
    expect(caught(YamlSyntaxError, () => parseExactYaml(laughs), 'laughs').message).toContain('alias');
  });
});

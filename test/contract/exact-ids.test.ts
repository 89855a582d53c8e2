import { describe, expect, it } from 'vitest';
import { idOf, idText, unknownIdCandidates } from '../../src/contract/exact-ids.js';

const pets = { idField: 'id', idType: 'integer' } as const;
import { parseExactJson } from '../../src/core/json/exact-json.js';

describe('idOf and idText', () => {
  it('read an id beyond 2^53 exactly and write it back as the deployment did', () => {
    const pet = parseExactJson('{"id":9007199254740993,"name":"a","categoryId":1}');
    expect(idOf(pet, pets)).toBe(9007199254740993n);
    expect(idText(idOf(pet, pets) ?? 0)).toBe('9007199254740993');
    // JSON.parse would have made it 9007199254740992, another pet's id.
    expect(String((JSON.parse('{"id":9007199254740993}') as { id: number }).id)).toBe('9007199254740992');
  });

  it('finds no id where there is no int64 one', () => {
    for (const text of ['{"id":"7"}', '{"id":1.0}', '{"id":9223372036854775808}', '{}', '[]', 'null']) {
      expect(idOf(parseExactJson(text), pets), text).toBeUndefined();
    }
  });
});

describe('unknownIdCandidates', () => {
  it('picks ids far above the highest seen, within int64', () => {
    expect(unknownIdCandidates([1, 2, 30]).map(String)).toEqual([
      '1000000037',
      '987654321031',
      '4611686018427387933',
      '9223372036854771565',
    ]);
  });

  it('goes below the lowest id when the highest is close to 2^63-1, and never offers an id seen', () => {
    const known = [9223372036854775000n, 9223372036854775807n, -5];
    const candidates = unknownIdCandidates(known).map(String);
    expect(candidates).toEqual(['-1000000012', '-987654321006', '-4611686018427387908']);
    for (const id of candidates) expect(known.map(String)).not.toContain(id);
  });
});

import type { ItemId } from '../core/store/item-snapshot.js';

const complement: Record<string, string> = {
  '0': '9',
  '1': '8',
  '2': '7',
  '3': '6',
  '4': '5',
  '5': '4',
  '6': '3',
  '7': '2',
  '8': '1',
  '9': '0',
};

/**
 * An id as the member that orders it in a sorted set read `BYLEX`, as the
 * engine's script writes it (lua-members.ts): by string operations on its
 * decimal text, never by arithmetic, so that the whole int64 range orders
 * exactly (a sorted set's score is a double).
 *
 * - an integer id: `1` and its 19 digits (zero-padded) for 0 and above; `0`
 *   and the nines' complement of its magnitude's 19 digits below 0;
 * - a text id: each UTF-16 code unit as four hex digits, the order of `<`.
 */
export function sortMember(id: ItemId, idType: 'integer' | 'string'): string {
  if (idType === 'string') {
    const text = String(id);
    let member = '';
    for (let index = 0; index < text.length; index++) member += text.charCodeAt(index).toString(16).padStart(4, '0');
    return member;
  }
  const text = String(id);
  if (text.startsWith('-')) {
    const digits = text.slice(1).padStart(19, '0');
    let flipped = '0';
    for (const digit of digits) flipped += complement[digit];
    return flipped;
  }
  return `1${text.padStart(19, '0')}`;
}

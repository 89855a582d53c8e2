/** A key that differs from the valid one in a way a loose comparison would miss. */
export interface KeyVariant {
  /** How it differs, as the end of a sentence: "with the key in another letter case". */
  label: string;
  /** The key, or undefined when the valid key does not allow this variant. */
  key: string | undefined;
  /** Why the variant cannot be built from this key. */
  cannot: string;
}

function other(char: string): string {
  return char === 'x' ? 'y' : 'x';
}

/**
 * Keys a deployment must refuse although they are close to the valid key: the
 * same letters in another case, one character more, one fewer, the last one
 * changed, only the first half in common. They catch keys compared without
 * regard to case, with `startsWith`, or on a prefix only.
 */
export function keyVariants(token: string): KeyVariant[] {
  const swapped = [...token].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  const half = Math.ceil(token.length / 2);
  return [
    {
      label: 'with the key in another letter case',
      key: swapped === token ? undefined : swapped,
      cannot: 'the key has no letters',
    },
    { label: 'with the key and one character appended', key: `${token}x`, cannot: '' },
    {
      label: 'with the key without its last character',
      key: token.length > 1 ? token.slice(0, -1) : undefined,
      cannot: 'the key is one character long',
    },
    {
      label: 'with the key with its last character changed',
      key: `${token.slice(0, -1)}${other(token.slice(-1))}`,
      cannot: '',
    },
    {
      label: 'with a key that shares only its first half with the valid key',
      key: token.length > 1 ? `${token.slice(0, half)}${[...token.slice(half)].map(other).join('')}` : undefined,
      cannot: 'the key is one character long',
    },
  ];
}

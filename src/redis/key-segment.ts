const plain = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * A name (a session, a collection, a field) as one segment of a key: itself
 * when it is 1-64 letters, digits, `.`, `_` or `-` (every valid session name),
 * `~` and its UTF-8 bytes in hex otherwise. Segments never hold `:` or a
 * space, so a key names one thing (`a:b` as a session cannot reach the keys
 * of session `a`), and `__proto__` is text like any other.
 */
export function keySegment(name: string): string {
  if (plain.test(name)) return name;
  return `~${Buffer.from(name, 'utf8').toString('hex')}`;
}

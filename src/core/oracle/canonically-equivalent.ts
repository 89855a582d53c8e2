/**
 * Whether two values are texts that differ as code points but are
 * canonically equivalent (Unicode Standard §3.7 C6, UAX #15): `Zoe\u0308`
 * and `Zoë`, one in NFD and the other in NFC. Such texts are the same text to
 * a conformant process; any other difference (case, spaces, a cut, an escape
 * decoded again, a compatibility mapping such as `ﬁ` to `fi`) is not.
 */
export function canonicallyEquivalent(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && a !== b && a.normalize('NFC') === b.normalize('NFC');
}

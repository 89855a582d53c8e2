const encoder = new TextEncoder();

/** Room for texts up to 16,384 UTF-16 units: at most three bytes each. */
const scratch = new Uint8Array(3 * 16_384);

/**
 * A text as UTF-8 bytes, in a buffer of its own. A text that surely fits
 * the shared scratch buffer (three bytes a UTF-16 unit at most) is written
 * into it with `encodeInto` and copied out: on Node 20 that takes about half
 * the CPU of `encode` for an answer's few hundred bytes (encode's own
 * allocation is the cost). A longer text takes `encode`.
 */
export function encodeText(text: string): Uint8Array {
  if (text.length * 3 > scratch.length) return encoder.encode(text);
  const { written } = encoder.encodeInto(text, scratch);
  return scratch.slice(0, written);
}

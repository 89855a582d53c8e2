import { HttpError } from '../core/errors/http-error.js';
import type { UnjudgedAnswer } from '../core/pipeline/forward-upstream.js';
import { inflateWithZlib } from '../node/inflate-node.js';

/** A size as people read it: `8 MiB`, or `1000 bytes`. */
export function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

export type Decoded = { decoded: Uint8Array } | { unjudged: UnjudgedAnswer };

function tooLargeToJudge(limit: number): { unjudged: UnjudgedAnswer } {
  return {
    unjudged: {
      rule: 'too-large-to-judge',
      reason: `the decoded answer is larger than ${mebibytes(limit)}, the most the proxy judges; it was passed on unjudged`,
    },
  };
}

/**
 * The answer's bytes with their Content-Encoding undone, at most `limit`
 * bytes of them; or why they cannot be judged: larger than the limit, not
 * valid data for their encoding, or an encoding the proxy does not know. The
 * reasons name no byte of the body, so that nothing the upstream sent reaches
 * a report or a JUnit file raw. An answer without an encoding (most of them)
 * is decoded at once, without a promise.
 */
export function decodeForJudging(
  encoding: string | undefined,
  bytes: Buffer,
  limit: number,
): Decoded | Promise<Decoded> {
  if (!encoding || encoding === 'identity' || bytes.length === 0) {
    return bytes.length > limit ? tooLargeToJudge(limit) : { decoded: bytes };
  }
  return inflateWithZlib(encoding, bytes, limit).then(
    (decoded): Decoded => ({ decoded }),
    (error: unknown): Decoded => {
      const code = error instanceof HttpError ? error.code : undefined;
      if (code === 'payload_too_large') return tooLargeToJudge(limit);
      if (code === 'unsupported_media_type') {
        return {
          unjudged: {
            rule: 'too-large-to-judge',
            reason: `the answer's Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not one the proxy can undo (gzip, deflate, br); it was passed on unjudged`,
          },
        };
      }
      return {
        unjudged: {
          rule: 'content-encoding',
          reason: `the answer is not valid ${JSON.stringify(encoding.slice(0, 40))} data, as its Content-Encoding says (RFC 9110 §8.4); it was passed on unjudged`,
        },
      };
    },
  );
}

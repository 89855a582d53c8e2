/** Fills a typed array with cryptographically strong random bytes. */
export type FillRandomBytes = (bytes: Uint8Array | Uint32Array) => void;

/** What of the runtime's globals the source is chosen from. */
export interface RandomHost {
  process?: { getBuiltinModule?: (id: string) => unknown };
  crypto?: { getRandomValues(bytes: Uint8Array | Uint32Array): unknown };
}

let fill: FillRandomBytes | undefined;

/** Fills `bytes` with random bytes from the runtime's cryptographic source (see randomSourceOf). */
export function fillRandomBytes(bytes: Uint8Array | Uint32Array): void {
  fill ??= randomSourceOf(globalThis as RandomHost);
  fill(bytes);
}

/**
 * The runtime's cryptographic source: in Node, `node:crypto`'s `randomFillSync`, found through a global as
 * requireOnDemand finds modules (the core imports no `node:*`); elsewhere, Web Crypto's `getRandomValues`.
 * Node 20 builds its Web Crypto object on first use, which cost a process's first request 2 to 5 ms (a
 * test's first `mock.fetch`), against a fraction of that for `randomFillSync`; both draw from the same source.
 */
export function randomSourceOf(host: RandomHost): FillRandomBytes {
  const nodeCrypto = host.process?.getBuiltinModule?.('node:crypto') as
    { randomFillSync(bytes: Uint8Array | Uint32Array): unknown } | undefined;
  if (nodeCrypto) return (bytes) => void nodeCrypto.randomFillSync(bytes);
  const webCrypto = host.crypto;
  if (webCrypto) return (bytes) => void webCrypto.getRandomValues(bytes);
  throw new Error('no cryptographic random source: the runtime has neither node:crypto nor Web Crypto');
}

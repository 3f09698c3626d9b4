/**
 * The login challenge's rule, one for the server that checks it (server/auth/challenge.ts) and the
 * browser that solves it (src/api/pow.ts): a nonce solves a challenge at difficulty d when
 * SHA-256(challenge + ":" + nonce) starts with d zero bits. Each side computes the digest with its
 * own platform (node:crypto, WebCrypto); this module only reads it.
 */

/** Leading zero bits of a digest. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** The text whose SHA-256 a nonce is judged by. */
export const challengeText = (challenge: string, nonce: string): string => `${challenge}:${nonce}`;

/** The login challenge's rule, read by the server (server/auth/challenge.ts) and the browser (src/api/pow.ts). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengeText, leadingZeroBits } from '../../domain/challenge';

describe('login challenge: leading zero bits of SHA-256(challenge:nonce)', () => {
  it('counts whole zero bytes, then the zero bits of the first non-zero byte', () => {
    expect(leadingZeroBits(Uint8Array.from([0xff]))).toBe(0);
    expect(leadingZeroBits(Uint8Array.from([0x01, 0xff]))).toBe(7);
    expect(leadingZeroBits(Uint8Array.from([0x00, 0x10, 0x00]))).toBe(11);
    expect(leadingZeroBits(Uint8Array.from([0x00, 0x00, 0x80]))).toBe(16);
    expect(leadingZeroBits(new Uint8Array(4))).toBe(32);
    expect(leadingZeroBits(new Uint8Array(0))).toBe(0);
  });

  it('judges the digest of challenge + ":" + nonce, the same text on both sides', async () => {
    expect(challengeText('abc', '1z')).toBe('abc:1z');
    // The browser's WebCrypto digest and the server's node:crypto digest of that text agree bit for bit.
    const text = challengeText('c', 'n');
    const web = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
    const node = new Uint8Array(createHash('sha256').update(text).digest());
    expect(leadingZeroBits(web)).toBe(leadingZeroBits(node));
    expect(Buffer.from(web).equals(Buffer.from(node))).toBe(true);
  });
});

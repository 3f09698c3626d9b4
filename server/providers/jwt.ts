/** JWS compact HS256 (2C2P v4 payloads): sign and verify with the merchant secret. */
import { createHmac } from 'node:crypto';
import { safeEqual } from './http';

function b64url(buf: Buffer | string): string {
  return Buffer.from(buf).toString('base64url');
}

export function signHs256(payload: unknown, secret: string): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(payload));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** The payload when the token is a well-formed HS256 JWS signed with secret; otherwise null. */
export function verifyHs256<T = unknown>(token: string, secret: string): T | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts as [string, string, string];
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
    if (header.alg !== 'HS256') return null;
    const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
    if (!safeEqual(expected, sig)) return null;
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}

/**
 * Back-office sessions (issue 15, finding 3). A person logs in at /admin/login with ADMIN_TOKEN and
 * gets the cookie `admin_sid` (httpOnly, SameSite=Strict, Path=/admin, Secure over https); the
 * table keeps only its SHA-256 and the session's CSRF token. Every state change with the cookie
 * needs that CSRF token (form field `_csrf` or header `x-csrf-token`) and an Origin (or Referer) of
 * our own origin. The command line (`npm run admin`) sends `Authorization: Bearer <ADMIN_TOKEN>`,
 * which a browser never adds by itself, so it needs neither. HTTP Basic is gone (a browser
 * replays it to any page that posts to us).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index';
import type { Config } from '../config';
import { secureCookie } from '../auth/cookies';

export const ADMIN_COOKIE = 'admin_sid';
export const ADMIN_SESSION_HOURS = 12;
export const ADMIN_IDLE_MINUTES = 30;

const hashId = (t: string) => createHash('sha256').update(t).digest('base64url');

/** Constant-time comparison of two secrets (of any lengths). */
export function same(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

export interface AdminSession {
  csrf: string;
}

export async function createAdminSession(q: Queryable, now: Date): Promise<{ token: string; csrf: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + ADMIN_SESSION_HOURS * 3_600_000);
  await q.query('INSERT INTO admin_sessions (id_hash, csrf, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $3, $4)', [hashId(token), csrf, now, expiresAt]);
  return { token, csrf, expiresAt };
}

export async function findAdminSession(q: Queryable, token: string | undefined, now: Date): Promise<AdminSession | null> {
  if (!token || token.length > 100) return null;
  const idleSince = new Date(now.getTime() - ADMIN_IDLE_MINUTES * 60_000);
  const r = await q.query<{ csrf: string }>(
    'UPDATE admin_sessions SET last_seen_at = $2 WHERE id_hash = $1 AND expires_at > $2 AND last_seen_at > $3 RETURNING csrf',
    [hashId(token), now, idleSince],
  );
  return r.rows[0] ?? null;
}

export async function deleteAdminSession(q: Queryable, token: string | undefined): Promise<void> {
  if (token) await q.query('DELETE FROM admin_sessions WHERE id_hash = $1', [hashId(token)]);
}

export function setAdminCookie(req: FastifyRequest, reply: FastifyReply, config: Config, token: string | null, expiresAt?: Date): void {
  const opts = { httpOnly: true, sameSite: 'strict' as const, path: '/admin', secure: secureCookie(req, config) };
  if (token === null) reply.clearCookie(ADMIN_COOKIE, opts);
  else reply.setCookie(ADMIN_COOKIE, token, { ...opts, ...(expiresAt ? { expires: expiresAt } : {}) });
}

/** Our own origin as browsers see it: PUBLIC_ORIGIN, else the request's scheme and host. */
export function ownOrigin(req: FastifyRequest, config: Config): string {
  return config.publicOrigin ?? `${req.protocol}://${req.host}`;
}

/** True when the request says it comes from a page of our own origin (Origin, else Referer). */
export function fromOwnOrigin(req: FastifyRequest, config: Config): boolean {
  const expected = ownOrigin(req, config).toLowerCase();
  const o = req.headers.origin;
  if (typeof o === 'string' && o !== 'null') return o.toLowerCase() === expected;
  const ref = req.headers.referer;
  if (typeof ref === 'string') {
    try {
      return new URL(ref).origin.toLowerCase() === expected;
    } catch {
      return false;
    }
  }
  return false;
}

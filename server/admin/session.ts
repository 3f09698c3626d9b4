/**
 * Back-office sessions. A person logs in at /admin/login with ADMIN_TOKEN and
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
import { issueChallenge, redeemChallenge } from '../auth/challenge';
import { loginGate, recordLoginFailure, recordLoginSuccess, type Attempt, type ChallengeBits } from '../auth/limits';

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

/**
 * The back office's one account, counted like member logins (server/auth/limits.ts loginGate): the
 * form at /admin/login and every Bearer request share its failures per address, per account +
 * address and for the account. An address that failed too often waits (429); once the account
 * itself had many failures from anywhere, every attempt from an address that has not logged in
 * before must bring a solved proof-of-work challenge (server/auth/challenge.ts, as member logins
 * do) — never a lock, so its owner gets in from any other address after a second or two of work.
 * The form solves it in the page (/admin/pow.js); the command line (scripts/admin.ts) solves it and
 * sends `x-admin-challenge` and `x-admin-nonce`.
 */
export function adminAttempt(req: FastifyRequest): Attempt {
  return { realm: 'admin', account: 'admin', address: req.ip };
}

/** open: go on (`solved`: with a solved challenge — a right token then marks this address as the owner's). */
export type AdminGate = { kind: 'open'; solved?: boolean } | { kind: 'wait'; seconds: number } | { kind: 'challenge'; challenge: string; difficulty: number };

/**
 * What this back-office attempt must do: wait, solve a challenge (a new one is issued and
 * answered), or go on. A solved challenge (`proof`) is used up whatever the token turns out to be.
 */
export async function adminGate(q: Queryable, req: FastifyRequest, now: Date, proof: { challenge?: unknown; nonce?: unknown }, bits: ChallengeBits): Promise<AdminGate> {
  const g = await loginGate(q, adminAttempt(req), now, bits);
  if (g.kind === 'wait') return g;
  if (g.kind === 'open') return g;
  if (proof.challenge !== undefined && (await redeemChallenge(q, 'admin', g.accountKey, proof.challenge, proof.nonce, now))) return { kind: 'open', solved: true };
  return { kind: 'challenge', ...(await issueChallenge(q, 'admin', g.accountKey, g.difficulty, now)) };
}

export async function adminTokenFailed(q: Queryable, req: FastifyRequest, now: Date): Promise<void> {
  await recordLoginFailure(q, adminAttempt(req), now);
}

export async function adminTokenAccepted(q: Queryable, req: FastifyRequest, now: Date): Promise<void> {
  await recordLoginSuccess(q, adminAttempt(req), now);
}

/**
 * An entropy estimate of a token in bits (below: the lower of its alphabet's and its characters'
 * spread, over the characters that are not predictable from the ones before). Runs
 * (`aaaa`) and ascending or descending sequences (`0123456789`, `abcdef`) count as one character
 * each, so `aaaa…a0123456789` measures a few bits however long it is.
 */
export function tokenEntropyBits(token: string): number {
  const chars = [...token];
  if (chars.length === 0) return 0;
  // Collapse runs and steady sequences: each step of one is predictable from the one before.
  const kept: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!.codePointAt(0)!;
    const prev = i > 0 ? chars[i - 1]!.codePointAt(0)! : null;
    const prev2 = i > 1 ? chars[i - 2]!.codePointAt(0)! : null;
    if (prev !== null && (c === prev || (prev2 !== null && c - prev === prev - prev2 && Math.abs(c - prev) === 1))) continue;
    kept.push(chars[i]!);
  }
  const counts = new Map<string, number>();
  for (const c of kept) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) {
    const p = n / kept.length;
    perChar -= p * Math.log2(p);
  }
  // Two readings, the lower wins: what the alphabet the token draws from allows per character
  // (hex 16, else digits 10 + lower 26 + upper 26 + others 32 as present), and the observed
  // spread of its characters (Shannon, which reads a short random sample low: weighted 1.5).
  const joined = kept.join('');
  const alphabet = /^[0-9a-f]+$/.test(joined) || /^[0-9A-F]+$/.test(joined)
    ? 16
    : (/[0-9]/.test(joined) ? 10 : 0) + (/[a-z]/.test(joined) ? 26 : 0) + (/[A-Z]/.test(joined) ? 26 : 0) + (/[^0-9a-zA-Z]/.test(joined) ? 32 : 0);
  return Math.min(kept.length * Math.log2(Math.max(alphabet, 2)), 1.5 * kept.length * perChar);
}

/**
 * An ADMIN_TOKEN needs this much measured randomness: `openssl rand -hex 16` (128 random bits)
 * measures about 120, `openssl rand -base64 32` about 250; `aaaa…a0123456789` under 10.
 */
export const ADMIN_TOKEN_MIN_BITS = 90;

/** Why a production ADMIN_TOKEN is too weak, or null. */
export function adminTokenProblem(token: string, minLength: number): string | null {
  if (token.length < minLength) return `at least ${minLength} random characters`;
  const bits = tokenEntropyBits(token);
  if (bits < ADMIN_TOKEN_MIN_BITS) return `about ${Math.floor(bits)} bits of randomness measured, at least ${ADMIN_TOKEN_MIN_BITS} needed`;
  return null;
}

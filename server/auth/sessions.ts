/**
 * Sessions: a random 32-byte id (base64url) in the httpOnly cookie `sid`; the table keeps only its
 * SHA-256, so a database leak does not leak live sessions. A session ends at expires_at
 * (SESSION_TTL_HOURS) or after SESSION_IDLE_MINUTES without a request (last_seen_at, refreshed at
 * most once a minute).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/index';

export const SESSION_COOKIE = 'sid';

export type Role = 'student' | 'instructor';

export interface SessionUser {
  id: number;
  role: Role;
  username: string | null;
  email: string;
  firstname: string;
  lastname: string;
  is_member: boolean;
  user_group_id: number | null;
  /** Taken off the shop's whitelist (users.off_whitelist_at): the session is refused with WHITELIST_USER_DENIED. */
  off_whitelist: boolean;
}

function hashId(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export async function createSession(q: Queryable, userId: number, role: Role, now: Date, ttlHours: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + ttlHours * 3_600_000);
  await q.query('INSERT INTO sessions (id_hash, user_id, role, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $4, $5)', [hashId(token), userId, role, now, expiresAt]);
  return { token, expiresAt };
}

/** How often last_seen_at is written (a request within this interval of the last one does not write). */
const TOUCH_MS = 60_000;

/**
 * The session's user, or null. The refresh of last_seen_at rides on the same statement (a
 * data-modifying CTE on the row just found), so a request pays one round trip for its session.
 */
export async function findSession(q: Queryable, token: string | undefined, now: Date, idleMinutes = 0): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const idleSince = idleMinutes > 0 ? new Date(now.getTime() - idleMinutes * 60_000) : new Date(0);
  const r = await q.query<SessionUser>(
    `WITH found AS (
       SELECT u.id, s.role, u.username, u.email, u.firstname, u.lastname, u.is_member, u.user_group_id, u.off_whitelist_at IS NOT NULL AS off_whitelist
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id_hash = $1 AND s.expires_at > $2 AND coalesce(s.last_seen_at, s.created_at) > $3
     ), touched AS (
       UPDATE sessions SET last_seen_at = $2
        WHERE id_hash = $1 AND (last_seen_at IS NULL OR last_seen_at <= $4) AND EXISTS (SELECT 1 FROM found)
     )
     SELECT * FROM found`,
    [hashId(token), now, idleSince, new Date(now.getTime() - TOUCH_MS)],
  );
  return r.rows[0] ?? null;
}

export async function deleteSession(q: Queryable, token: string | undefined): Promise<void> {
  if (!token) return;
  await q.query('DELETE FROM sessions WHERE id_hash = $1', [hashId(token)]);
}

export async function purgeExpiredSessions(q: Queryable, now: Date): Promise<void> {
  await q.query('DELETE FROM sessions WHERE expires_at <= $1', [now]);
}

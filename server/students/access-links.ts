/**
 * Sign-in links sent by e-mail: the way back in for a layout-4 buyer who has no password (and for
 * anyone who proves they own an address). A link is a random 256-bit token; only its SHA-256 is
 * stored (table access_links, migration 601) with the account, the path it opens (chosen by the
 * server: the order list or a course page, never text a buyer wrote) and its expiry.
 *   - 'welcome': in the one registration mail, opens the order list, usable until it expires
 *     (WELCOME_LINK_DAYS);
 *   - 'signin': asked for with an e-mail address ("send me a link"), usable once, for
 *     SIGNIN_LINK_MINUTES.
 * Opening a link verifies the address and signs the account in (server/routes/auth.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config';

interface Q {
  query: <R>(sql: string, params?: unknown[]) => Promise<{ rows: R[] }>;
}

export type LinkPurpose = 'welcome' | 'signin';

export const WELCOME_LINK_DAYS = 30;
export const SIGNIN_LINK_MINUTES = 30;
/** After opening a link the buyer may set a (new) password for this long without the old one. */
export const PASSWORD_SET_MINUTES = 30;

export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Only these paths are ever put behind a link (the order list, one course page). */
export function linkTarget(courseId: number | null): string {
  return courseId === null ? '/myaccount/student/order' : `/course/${courseId}`;
}

/** The shop's own origin for links in mails: PUBLIC_ORIGIN, else the address it listens on — never the request's Host. */
export function shopOrigin(config: Pick<Config, 'publicOrigin' | 'host' | 'port'>): string {
  if (config.publicOrigin) return config.publicOrigin;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

export async function createAccessLink(q: Q, userId: number, purpose: LinkPurpose, target: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const ttl = purpose === 'welcome' ? WELCOME_LINK_DAYS * 86_400_000 : SIGNIN_LINK_MINUTES * 60_000;
  const expiresAt = new Date(now.getTime() + ttl);
  await q.query('INSERT INTO access_links (token_hash, user_id, purpose, target, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [hashOf(token), userId, purpose, target, now, expiresAt]);
  return { token, expiresAt };
}

/** Opens a link: its account and path, or null when unknown, expired or (sign-in links) used. */
export async function openAccessLink(q: Q, token: string, now: Date): Promise<{ userId: number; target: string } | null> {
  if (!LINK_TOKEN_PATTERN.test(token)) return null;
  const r = await q.query<{ user_id: number; target: string }>(
    `UPDATE access_links SET used_at = $2
      WHERE token_hash = $1 AND expires_at > $2 AND (purpose = 'welcome' OR used_at IS NULL)
      RETURNING user_id, target`,
    [hashOf(token), now],
  );
  const row = r.rows[0];
  if (!row) return null;
  await q.query('UPDATE users SET email_verified_at = coalesce(email_verified_at, $2) WHERE id = $1', [row.user_id, now]);
  return { userId: row.user_id, target: row.target };
}

/** The account opened one of its links in the last PASSWORD_SET_MINUTES (it may set a password). */
export async function openedLinkRecently(q: Q, userId: number, now: Date): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM access_links WHERE user_id = $1 AND used_at > $2 LIMIT 1', [userId, new Date(now.getTime() - PASSWORD_SET_MINUTES * 60_000)]);
  return r.rows.length > 0;
}

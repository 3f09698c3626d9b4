/**
 * Uploaded files and registration upload tokens: storage used (in all, per uploader, the
 * visitors' pool), upload and token counts for the rate limits, and the storage lock.
 */
import type { Queryable } from '../db/index';
import { LOCKS } from '../db/locks';

/** Who an upload is counted against: a student, or a registration upload token (its hash) and its address. */
export type Uploader = { kind: 'student'; userId: number } | { kind: 'visitor'; token: string; address: string };

/** Serialises storage decisions in this transaction (quota, shares and pool stay true). */
export async function lockStorage(q: Queryable): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.uploadStorage]);
}

/** Bytes stored in all (not deleted). */
export async function usedStorage(q: Queryable): Promise<number> {
  const r = await q.query<{ used: number }>('SELECT coalesce(sum(size), 0)::bigint AS used FROM uploads WHERE NOT deleted');
  return r.rows[0]?.used ?? 0;
}

/** Bytes the uploader has stored (not deleted). */
export async function usedBy(q: Queryable, u: Uploader): Promise<number> {
  const r = await q.query<{ used: number }>(
    u.kind === 'student' ? 'SELECT coalesce(sum(size), 0)::bigint AS used FROM uploads WHERE NOT deleted AND user_id = $1' : 'SELECT coalesce(sum(size), 0)::bigint AS used FROM uploads WHERE NOT deleted AND upload_token = $1',
    [u.kind === 'student' ? u.userId : u.token],
  );
  return Number(r.rows[0]?.used ?? 0);
}

/** The uploader's uploads since `since`: how many, and when the first was. */
export async function uploadsSince(q: Queryable, u: Uploader, since: Date): Promise<{ n: number; first: Date | null }> {
  const r = await q.query<{ n: number; first: Date | null }>(
    u.kind === 'student'
      ? 'SELECT count(*)::int AS n, min(created_at) AS first FROM uploads WHERE user_id = $1 AND created_at > $2'
      : 'SELECT count(*)::int AS n, min(created_at) AS first FROM uploads WHERE upload_token = $1 AND created_at > $2',
    [u.kind === 'student' ? u.userId : u.token, since],
  );
  return r.rows[0] ?? { n: 0, first: null };
}

/** The visitors' pool (all visitor uploads not deleted) and what this address uploaded since `since`, in bytes. */
export async function visitorUsage(q: Queryable, address: string, since: Date): Promise<{ pool: number; today: number }> {
  const r = await q.query<{ pool: number; today: number }>(
    `SELECT coalesce(sum(size) FILTER (WHERE NOT deleted), 0)::bigint AS pool,
            coalesce(sum(size) FILTER (WHERE address_hash = $1 AND created_at > $2), 0)::bigint AS today
       FROM uploads WHERE upload_token IS NOT NULL AND user_id IS NULL`,
    [address, since],
  );
  return { pool: Number(r.rows[0]?.pool ?? 0), today: Number(r.rows[0]?.today ?? 0) };
}

export interface NewUpload {
  uploader: Uploader;
  fileName: string;
  originalName: string;
  mime: string;
  size: number;
  createdAt: Date;
}

export async function insertUpload(q: Queryable, u: NewUpload): Promise<void> {
  const who = u.uploader;
  await q.query('INSERT INTO uploads (user_id, upload_token, file_name, original_name, mime, size, created_at, address_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
    who.kind === 'student' ? who.userId : null,
    who.kind === 'visitor' ? who.token : null,
    u.fileName,
    u.originalName,
    u.mime,
    u.size,
    u.createdAt,
    who.kind === 'visitor' ? who.address : null,
  ]);
}

/**
 * Marks deleted (at most 500 a call) the visitor uploads made before `before` that no payment
 * report and no user's profile refers to; returns their file names.
 */
export async function deleteUnusedVisitorUploads(q: Queryable, before: Date): Promise<{ id: number; file_name: string }[]> {
  const r = await q.query<{ id: number; file_name: string }>(
    `UPDATE uploads u SET deleted = true
      WHERE u.id IN (
        SELECT x.id FROM uploads x
         WHERE NOT x.deleted AND x.user_id IS NULL AND x.upload_token IS NOT NULL AND x.created_at < $1
           AND NOT EXISTS (SELECT 1 FROM payment_reports pr WHERE pr.slip = x.file_name)
           AND NOT EXISTS (SELECT 1 FROM users us WHERE strpos(us.profile::text, x.file_name) > 0)
         ORDER BY x.id LIMIT 500)
      RETURNING u.id, u.file_name`,
    [before],
  );
  return r.rows;
}

/** The upload token (by its hash) exists and has not expired. */
export async function uploadTokenIsLive(q: Queryable, idHash: string, now: Date): Promise<boolean> {
  return (await q.query('SELECT 1 FROM upload_tokens WHERE id_hash = $1 AND expires_at > $2', [idHash, now])).rows.length > 0;
}

/** Forgets tokens that expired and were made before `madeBefore`. */
export async function deleteExpiredUploadTokens(q: Queryable, now: Date, madeBefore: Date): Promise<void> {
  await q.query('DELETE FROM upload_tokens WHERE expires_at <= $1 AND created_at <= $2', [now, madeBefore]);
}

/** Tokens this address took since `since`: how many, and when the first was. */
export async function uploadTokensSince(q: Queryable, address: string, since: Date): Promise<{ n: number; first: Date | null }> {
  const r = await q.query<{ n: number; first: Date | null }>('SELECT count(*)::int AS n, min(created_at) AS first FROM upload_tokens WHERE address_hash = $1 AND created_at > $2', [address, since]);
  return r.rows[0] ?? { n: 0, first: null };
}

export async function insertUploadToken(q: Queryable, idHash: string, createdAt: Date, expiresAt: Date, address: string): Promise<void> {
  await q.query('INSERT INTO upload_tokens (id_hash, created_at, expires_at, address_hash) VALUES ($1, $2, $3, $4)', [idHash, createdAt, expiresAt, address]);
}

/** The file is an upload of this user's, not deleted. */
export async function isOwnUpload(q: Queryable, fileName: string, userId: number): Promise<boolean> {
  return (await q.query('SELECT 1 FROM uploads WHERE file_name = $1 AND NOT deleted AND user_id = $2', [fileName, userId])).rows.length > 0;
}

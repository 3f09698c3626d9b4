/**
 * One-file upload with type, size and storage quota checks; the free storage (tag uploads).
 * Uploads need a student session or the upload token (cookie `upl`) of the layout-4
 * registration (createUploadToken); each student or token has its own share of the storage and a
 * rate limit, counted in the database (issue 15, finding 6).
 *
 * Visitors (upload tokens) cannot exhaust the storage for students (config `abuse`, README
 * "Security"): their uploads draw from a pool of their own (VISITOR_POOL_MB, all visitors
 * together), each address may take UPLOAD_TOKENS_PER_DAY tokens and upload
 * VISITOR_UPLOAD_MB_PER_DAY in 24 hours, and a visitor upload never uses the last
 * STUDENT_RESERVE_MB of free storage (kept for students' payment slips). Visitor uploads no
 * registration or report uses are deleted after VISITOR_UPLOAD_KEEP_HOURS (housekeeping,
 * purgeVisitorUploads).
 */
import { createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { join, extname } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { secureCookie } from '../auth/cookies';
import type { AppContext } from '../context';
import { pipeline } from 'node:stream/promises';
import type { Handlers } from '../openapi/router';
import { ApiError } from '../errors';
import { MESSAGES } from '../../domain/messages';
import { bytesToGb, exceedsStorage, isAllowedFileType } from '../../domain/forms/upload';
import type { Queryable } from '../db/index';
import { LOCKS } from '../db/locks';
import { addressHash } from '../orders/holds';

/** Spec 5 "Upload": images jpg, png, jpeg, gif; videos m4v, mp4, avi, mpg, quicktime. */
const ALLOWED: Record<string, { mimes: string[]; magic?: (b: Buffer) => boolean }> = {
  jpg: { mimes: ['image/jpeg', 'image/jpg', 'image/pjpeg'], magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  jpeg: { mimes: ['image/jpeg', 'image/jpg', 'image/pjpeg'], magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  png: { mimes: ['image/png'], magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  gif: { mimes: ['image/gif'], magic: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  m4v: { mimes: ['video/x-m4v', 'video/mp4'] },
  mp4: { mimes: ['video/mp4'] },
  avi: { mimes: ['video/x-msvideo', 'video/avi', 'video/msvideo'] },
  mpg: { mimes: ['video/mpeg'] },
  mpeg: { mimes: ['video/mpeg'] },
  mov: { mimes: ['video/quicktime'] },
  qt: { mimes: ['video/quicktime'] },
};
const FILE_FIELDS = new Set(['imageinput', 'image', 'imageinputs', 'image_inputs']);

export async function usedStorage(q: Queryable): Promise<number> {
  const r = await q.query<{ used: number }>('SELECT coalesce(sum(size), 0)::bigint AS used FROM uploads WHERE NOT deleted');
  return r.rows[0]?.used ?? 0;
}


/**
 * An error while reading the multipart body: ours (ApiError) and size limits pass through; a
 * body that is not valid multipart (no boundary, a broken part header, an early end) is the
 * request's fault — 400, never 500. A file-system error stays a server error.
 */
function malformed(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; statusCode?: number; errno?: number; syscall?: string };
  if (e.statusCode === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE' || e.code === 'FST_FILES_LIMIT' || e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FIELDS_LIMIT') return err;
  if (typeof e.errno === 'number' || typeof e.syscall === 'string') return err;
  return new ApiError(400, 'VALIDATION_ERROR', 'The body is not valid multipart/form-data', [{ field: 'body', msg: 'malformed multipart/form-data' }]);
}

export const UPLOAD_TOKEN_COOKIE = 'upl';
const UPLOAD_PATH = '/api/home/test_upload';
const tokenHash = (t: string) => createHash('sha256').update(t).digest('base64url');

/** Who an upload is counted against: a student, or a registration upload token (and its address). */
type Uploader = { kind: 'student'; userId: number } | { kind: 'visitor'; token: string; address: string };

async function uploader(req: FastifyRequest, ctx: AppContext): Promise<Uploader> {
  if (req.user && req.user.role === 'student') return { kind: 'student', userId: req.user.id };
  const raw = req.cookies?.[UPLOAD_TOKEN_COOKIE];
  if (raw && raw.length <= 100) {
    const r = await ctx.db.query('SELECT 1 FROM upload_tokens WHERE id_hash = $1 AND expires_at > $2', [tokenHash(raw), ctx.clock.now()]);
    if (r.rows.length > 0) return { kind: 'visitor', token: tokenHash(raw), address: addressHash(req.ip) };
  }
  throw new ApiError(403, 'UPLOAD_TOKEN_REQUIRED', 'Uploads need a student login or the registration form (upload token)');
}

/** Refuses an upload over the uploader's rate limit (429) before the file is read. */
async function withinRate(u: Uploader, ctx: AppContext, reply: FastifyReply): Promise<void> {
  const max = ctx.config.uploadsPer10Minutes;
  if (max <= 0) return;
  const since = new Date(ctx.clock.now().getTime() - 10 * 60_000);
  const r = await ctx.db.query<{ n: number; first: Date | null }>(
    u.kind === 'student'
      ? 'SELECT count(*)::int AS n, min(created_at) AS first FROM uploads WHERE user_id = $1 AND created_at > $2'
      : 'SELECT count(*)::int AS n, min(created_at) AS first FROM uploads WHERE upload_token = $1 AND created_at > $2',
    [u.kind === 'student' ? u.userId : u.token, since],
  );
  const row = r.rows[0];
  if (row && row.n >= max) {
    const wait = row.first ? Math.max(1, Math.ceil((new Date(row.first).getTime() + 10 * 60_000 - ctx.clock.now().getTime()) / 1000)) : 60;
    reply.header('retry-after', String(wait));
    throw new ApiError(429, 'RATE_LIMITED', `Too many uploads, try again in ${wait} s`);
  }
}

/** Bytes the uploader has stored (not deleted). */
async function usedBy(q: Queryable, u: Uploader): Promise<number> {
  const r = await q.query<{ used: number }>(
    u.kind === 'student' ? 'SELECT coalesce(sum(size), 0)::bigint AS used FROM uploads WHERE NOT deleted AND user_id = $1' : 'SELECT coalesce(sum(size), 0)::bigint AS used FROM uploads WHERE NOT deleted AND upload_token = $1',
    [u.kind === 'student' ? u.userId : u.token],
  );
  return Number(r.rows[0]?.used ?? 0);
}

const DAY_MS = 86_400_000;

/** 429 when this address has taken its upload tokens for the last 24 hours. */
async function tokensWithinDailyLimit(ctx: AppContext, address: string, now: Date, reply: FastifyReply): Promise<void> {
  const max = ctx.config.abuse.uploadTokensPerAddressPerDay;
  if (max <= 0) return;
  const r = await ctx.db.query<{ n: number; first: Date | null }>('SELECT count(*)::int AS n, min(created_at) AS first FROM upload_tokens WHERE address_hash = $1 AND created_at > $2', [
    address,
    new Date(now.getTime() - DAY_MS),
  ]);
  const row = r.rows[0];
  if (row && row.n >= max) {
    const wait = row.first ? Math.max(1, Math.ceil((new Date(row.first).getTime() + DAY_MS - now.getTime()) / 1000)) : 3600;
    reply.header('retry-after', String(wait));
    throw new ApiError(429, 'RATE_LIMITED', MESSAGES.TOO_MANY_REQUESTS);
  }
}

/**
 * A visitor's file may be stored (inside the upload transaction, under the storage lock): the
 * visitors' pool has room, the address has not uploaded its bytes for the day, and the free
 * storage left afterwards is still at least the students' reserve. Else 422 OUT_OF_STORAGE.
 */
async function visitorMayStore(q: Queryable, ctx: AppContext, who: Extract<Uploader, { kind: 'visitor' }>, size: number, free: number): Promise<void> {
  const limits = ctx.config.abuse;
  const full = () => new ApiError(422, 'OUT_OF_STORAGE', MESSAGES.VISITOR_UPLOADS_FULL);
  if (free - size < limits.studentReserveBytes) throw full();
  const r = await q.query<{ pool: number; today: number }>(
    `SELECT coalesce(sum(size) FILTER (WHERE NOT deleted), 0)::bigint AS pool,
            coalesce(sum(size) FILTER (WHERE address_hash = $1 AND created_at > $2), 0)::bigint AS today
       FROM uploads WHERE upload_token IS NOT NULL AND user_id IS NULL`,
    [who.address, new Date(ctx.clock.now().getTime() - DAY_MS)],
  );
  const pool = Number(r.rows[0]?.pool ?? 0);
  const today = Number(r.rows[0]?.today ?? 0);
  if (limits.visitorPoolBytes > 0 && pool + size > limits.visitorPoolBytes) throw full();
  if (limits.visitorBytesPerAddressPerDay > 0 && today + size > limits.visitorBytesPerAddressPerDay) throw full();
}

/**
 * Housekeeping: visitor uploads older than VISITOR_UPLOAD_KEEP_HOURS that no registration
 * (a user's profile) and no payment report refers to are deleted (marked, file removed).
 * Returns how many.
 */
export async function purgeVisitorUploads(q: Queryable, now: Date, keepHours: number, uploadsDir: string | null): Promise<number> {
  if (keepHours <= 0) return 0;
  const r = await q.query<{ id: number; file_name: string }>(
    `UPDATE uploads u SET deleted = true
      WHERE u.id IN (
        SELECT x.id FROM uploads x
         WHERE NOT x.deleted AND x.user_id IS NULL AND x.upload_token IS NOT NULL AND x.created_at < $1
           AND NOT EXISTS (SELECT 1 FROM payment_reports pr WHERE pr.slip = x.file_name)
           AND NOT EXISTS (SELECT 1 FROM users us WHERE strpos(us.profile::text, x.file_name) > 0)
         ORDER BY x.id LIMIT 500)
      RETURNING u.id, u.file_name`,
    [new Date(now.getTime() - keepHours * 3_600_000)],
  );
  if (uploadsDir) await Promise.all(r.rows.map((f) => rm(join(uploadsDir, f.file_name), { force: true })));
  return r.rows.length;
}

export const uploadHandlers: Handlers = {
  async createUploadToken(req, reply, ctx) {
    const token = randomBytes(32).toString('base64url');
    const now = ctx.clock.now();
    const expiresAt = new Date(now.getTime() + ctx.config.uploadTokenMinutes * 60_000);
    const address = addressHash(req.ip);
    // Expired tokens are kept a day: they count towards their address's daily number of tokens.
    await ctx.db.query('DELETE FROM upload_tokens WHERE expires_at <= $1 AND created_at <= $2', [now, new Date(now.getTime() - DAY_MS)]);
    await tokensWithinDailyLimit(ctx, address, now, reply);
    await ctx.db.query('INSERT INTO upload_tokens (id_hash, created_at, expires_at, address_hash) VALUES ($1, $2, $3, $4)', [tokenHash(token), now, expiresAt, address]);
    reply.setCookie(UPLOAD_TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: UPLOAD_PATH, secure: secureCookie(req, ctx.config), expires: expiresAt });
    return { success: true, expires_at: expiresAt.toISOString() };
  },

  async getStorageDetails(_req, _reply, ctx) {
    const used = await usedStorage(ctx.db);
    const total = ctx.config.storageQuotaBytes;
    return { success: true, data: { free_storage_gb: bytesToGb(Math.max(0, total - used)), used_storage_gb: bytesToGb(used), total_storage_gb: bytesToGb(total) } };
  },

  async uploadFile(req, reply, ctx) {
    const who = await uploader(req, ctx);
    await withinRate(who, ctx, reply);
    if (!req.isMultipart()) throw new ApiError(400, 'VALIDATION_ERROR', 'Send multipart/form-data with one file in the field imageinput', [{ field: 'imageinput', msg: MESSAGES.FILE_REQUIRED }]);
    const tmpFiles: string[] = [];
    let stored: { tmp: string; original: string; mime: string; ext: string } | null = null;
    try {
      try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        if (stored || !FILE_FIELDS.has(part.fieldname.replace(/\s+/g, '').toLowerCase())) {
          part.file.resume();
          throw new ApiError(400, 'VALIDATION_ERROR', MESSAGES.ONE_FILE_ONLY, [{ field: part.fieldname, msg: MESSAGES.ONE_FILE_ONLY }]);
        }
        // The spec's rule (domain/forms/upload), then the server's own hardening: the extension we
        // store the file under must agree with the type, and images must start like one.
        if (/[\u0000-\u001f\u007f]|[\uD800-\uDFFF]/.test(part.filename ?? '')) {
          part.file.resume();
          throw new ApiError(400, 'VALIDATION_ERROR', 'The file name contains invalid characters', [{ field: 'imageinput', msg: 'invalid file name' }]);
        }
        const ext = extname(part.filename || '').slice(1).toLowerCase();
        const rule = ALLOWED[ext];
        if (!isAllowedFileType({ name: part.filename, type: part.mimetype }, ['image', 'video']) || !rule || !rule.mimes.includes(part.mimetype.toLowerCase())) {
          part.file.resume();
          throw new ApiError(400, 'INVALID_FILE_TYPE', MESSAGES.FILE_TYPE_NOT_ALLOWED, [{ field: 'imageinput', msg: MESSAGES.FILE_TYPE_NOT_ALLOWED }]);
        }
        const tmp = join(ctx.uploadsDir, `.tmp-${randomBytes(8).toString('hex')}`);
        tmpFiles.push(tmp);
        await pipeline(part.file, createWriteStream(tmp));
        if (part.file.truncated) throw new ApiError(413, 'FILE_TOO_LARGE', 'File is too large');
        if (rule.magic) {
          const fh = await open(tmp, 'r');
          const head = Buffer.alloc(8);
          await fh.read(head, 0, 8, 0);
          await fh.close();
          if (!rule.magic(head)) throw new ApiError(400, 'INVALID_FILE_TYPE', MESSAGES.FILE_TYPE_NOT_ALLOWED, [{ field: 'imageinput', msg: MESSAGES.FILE_TYPE_NOT_ALLOWED }]);
        }
        stored = { tmp, original: part.filename.slice(0, 255), mime: part.mimetype, ext };
      }
      } catch (err) {
        throw malformed(err);
      }
      if (!stored) throw new ApiError(400, 'VALIDATION_ERROR', MESSAGES.FILE_REQUIRED, [{ field: 'imageinput', msg: MESSAGES.FILE_REQUIRED }]);
      const file = stored;
      const size = (await stat(file.tmp)).size;
      const name = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}.${file.ext}`;
      await ctx.db.tx(async (q) => {
        await q.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.uploadStorage]);
        const free = ctx.config.storageQuotaBytes - (await usedStorage(q));
        if (exceedsStorage(size, bytesToGb(Math.max(0, free)))) throw new ApiError(422, 'OUT_OF_STORAGE', MESSAGES.OUT_OF_STORAGE);
        // The uploader's own share: one student or one registration token cannot fill the shop's storage.
        const share = who.kind === 'student' ? ctx.config.uploadShareBytes.student : ctx.config.uploadShareBytes.visitor;
        if ((await usedBy(q, who)) + size > share) throw new ApiError(422, 'OUT_OF_STORAGE', MESSAGES.OUT_OF_STORAGE);
        // Visitors: their own pool, their address's daily bytes, and never the students' reserve.
        if (who.kind === 'visitor') await visitorMayStore(q, ctx, who, size, free);
        await q.query('INSERT INTO uploads (user_id, upload_token, file_name, original_name, mime, size, created_at, address_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
          who.kind === 'student' ? who.userId : null,
          who.kind === 'visitor' ? who.token : null,
          name,
          file.original,
          file.mime,
          size,
          ctx.clock.now(),
          who.kind === 'visitor' ? who.address : null,
        ]);
        await rename(file.tmp, join(ctx.uploadsDir, name));
      });
      return { success: true, fileName: [name] };
    } finally {
      await Promise.all(tmpFiles.map((f) => rm(f, { force: true })));
    }
  },
};

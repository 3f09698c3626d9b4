/**
 * One-file upload with type, size and storage quota checks; the free storage (tag uploads).
 * Uploads need a student session or the upload token (cookie `upl`) of the layout-4
 * registration (createUploadToken); each student or token has its own share of the storage and a
 * rate limit, counted in the database (issue 15, finding 6).
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

/** Who an upload is counted against: a student, or a registration upload token. */
type Uploader = { kind: 'student'; userId: number } | { kind: 'visitor'; token: string };

async function uploader(req: FastifyRequest, ctx: AppContext): Promise<Uploader> {
  if (req.user && req.user.role === 'student') return { kind: 'student', userId: req.user.id };
  const raw = req.cookies?.[UPLOAD_TOKEN_COOKIE];
  if (raw && raw.length <= 100) {
    const r = await ctx.db.query('SELECT 1 FROM upload_tokens WHERE id_hash = $1 AND expires_at > $2', [tokenHash(raw), ctx.clock.now()]);
    if (r.rows.length > 0) return { kind: 'visitor', token: tokenHash(raw) };
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

export const uploadHandlers: Handlers = {
  async createUploadToken(req, reply, ctx) {
    const token = randomBytes(32).toString('base64url');
    const now = ctx.clock.now();
    const expiresAt = new Date(now.getTime() + ctx.config.uploadTokenMinutes * 60_000);
    await ctx.db.query('DELETE FROM upload_tokens WHERE expires_at <= $1', [now]);
    await ctx.db.query('INSERT INTO upload_tokens (id_hash, created_at, expires_at) VALUES ($1, $2, $3)', [tokenHash(token), now, expiresAt]);
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
        await q.query('SELECT pg_advisory_xact_lock(7346003)');
        const free = ctx.config.storageQuotaBytes - (await usedStorage(q));
        if (exceedsStorage(size, bytesToGb(Math.max(0, free)))) throw new ApiError(422, 'OUT_OF_STORAGE', MESSAGES.OUT_OF_STORAGE);
        // The uploader's own share: one student or one registration token cannot fill the shop's storage.
        const share = who.kind === 'student' ? ctx.config.uploadShareBytes.student : ctx.config.uploadShareBytes.visitor;
        if ((await usedBy(q, who)) + size > share) throw new ApiError(422, 'OUT_OF_STORAGE', MESSAGES.OUT_OF_STORAGE);
        await q.query('INSERT INTO uploads (user_id, upload_token, file_name, original_name, mime, size, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
          who.kind === 'student' ? who.userId : null,
          who.kind === 'visitor' ? who.token : null,
          name,
          file.original,
          file.mime,
          size,
          ctx.clock.now(),
        ]);
        await rename(file.tmp, join(ctx.uploadsDir, name));
      });
      return { success: true, fileName: [name] };
    } finally {
      await Promise.all(tmpFiles.map((f) => rm(f, { force: true })));
    }
  },
};

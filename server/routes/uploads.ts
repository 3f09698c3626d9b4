/**
 * One-file upload with type, size and storage quota checks; the free storage (tag uploads).
 * Uploads need a student session or the upload token (cookie `upl`) of the layout-4
 * registration (createUploadToken); each student or token has its own share of the storage and a
 * rate limit, counted in the database.
 *
 * Visitors (upload tokens) cannot exhaust the storage for students: the storage rules, limits
 * and the visitors' pool are server/storage/uploads.ts's. This handler reads the multipart body
 * and checks the file (type, extension, first bytes).
 */
import { createWriteStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { join, extname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { secureCookie } from '../auth/cookies';
import type { Handlers } from '../openapi/router';
import { ApiError } from '../errors';
import { MSG } from '../../domain/messages';
import { bytesToGb, isAllowedFileType } from '../../domain/forms/upload';
import { findUploader, issueUploadToken, storageDetails, storeUpload, uploadWait } from '../storage/uploads';

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
export const uploadHandlers: Handlers = {
  async createUploadToken(req, reply, ctx) {
    const issued = await issueUploadToken(ctx, req.ip);
    if (issued.kind === 'wait') {
      reply.header('retry-after', String(issued.seconds));
      throw new ApiError(429, 'RATE_LIMITED', MSG.TOO_MANY_REQUESTS);
    }
    reply.setCookie(UPLOAD_TOKEN_COOKIE, issued.token, { httpOnly: true, sameSite: 'strict', path: UPLOAD_PATH, secure: secureCookie(req, ctx.config), expires: issued.expiresAt });
    return { success: true, expires_at: issued.expiresAt.toISOString() };
  },

  async getStorageDetails(_req, _reply, ctx) {
    const { used, total } = await storageDetails(ctx);
    return { success: true, data: { free_storage_gb: bytesToGb(Math.max(0, total - used)), used_storage_gb: bytesToGb(used), total_storage_gb: bytesToGb(total) } };
  },

  async uploadFile(req, reply, ctx) {
    const who = await findUploader(ctx, req.user, req.cookies?.[UPLOAD_TOKEN_COOKIE], req.ip);
    if (!who) throw new ApiError(403, 'UPLOAD_TOKEN_REQUIRED', 'Uploads need a student login or the registration form (upload token)');
    // Refused over the uploader's rate limit (429) before the file is read.
    const wait = await uploadWait(ctx, who);
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      throw new ApiError(429, 'RATE_LIMITED', `Too many uploads, try again in ${wait} s`);
    }
    if (!req.isMultipart()) throw new ApiError(400, 'VALIDATION_ERROR', 'Send multipart/form-data with one file in the field imageinput', [{ field: 'imageinput', msg: MSG.FILE_REQUIRED }]);
    const tmpFiles: string[] = [];
    let stored: { tmp: string; original: string; mime: string; ext: string } | null = null;
    try {
      try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        if (stored || !FILE_FIELDS.has(part.fieldname.replace(/\s+/g, '').toLowerCase())) {
          part.file.resume();
          throw new ApiError(400, 'VALIDATION_ERROR', MSG.ONE_FILE_ONLY, [{ field: part.fieldname, msg: MSG.ONE_FILE_ONLY }]);
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
          throw new ApiError(400, 'INVALID_FILE_TYPE', MSG.FILE_TYPE_NOT_ALLOWED, [{ field: 'imageinput', msg: MSG.FILE_TYPE_NOT_ALLOWED }]);
        }
        const tmp = join(ctx.uploadsDir, `.tmp-${randomBytes(8).toString('hex')}`);
        tmpFiles.push(tmp);
        await pipeline(part.file, createWriteStream(tmp));
        if (part.file.truncated) throw new ApiError(413, 'FILE_TOO_LARGE', MSG.FILE_TOO_LARGE);
        if (rule.magic) {
          const fh = await open(tmp, 'r');
          const head = Buffer.alloc(8);
          await fh.read(head, 0, 8, 0);
          await fh.close();
          if (!rule.magic(head)) throw new ApiError(400, 'INVALID_FILE_TYPE', MSG.FILE_TYPE_NOT_ALLOWED, [{ field: 'imageinput', msg: MSG.FILE_TYPE_NOT_ALLOWED }]);
        }
        stored = { tmp, original: part.filename.slice(0, 255), mime: part.mimetype, ext };
      }
      } catch (err) {
        throw malformed(err);
      }
      if (!stored) throw new ApiError(400, 'VALIDATION_ERROR', MSG.FILE_REQUIRED, [{ field: 'imageinput', msg: MSG.FILE_REQUIRED }]);
      const file = stored;
      const size = (await stat(file.tmp)).size;
      const name = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}.${file.ext}`;
      await storeUpload(ctx, who, { tmp: file.tmp, original: file.original, mime: file.mime, size }, name);
      return { success: true, fileName: [name] };
    } finally {
      await Promise.all(tmpFiles.map((f) => rm(f, { force: true })));
    }
  },
};

/**
 * The student's withholding-certificate upload (tag orders): one file, PDF or image, in the
 * multipart field `file`. The order is checked before the file is read (owner, paid, withheld, no
 * certificate received yet); the file is checked like every upload (type, extension, first bytes,
 * the per-file size limit, the student's rate limit) and stored through server/storage/uploads.ts.
 */
import { createWriteStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Handlers } from '../openapi/router';
import { ApiError } from '../errors';
import { MSG } from '../../domain/messages';
import { CERTIFICATE_FILE_TYPES } from '../../domain/documents/certificate';
import { uploadWait } from '../storage/uploads';
import { assertCertificateWanted, certificateForApi, submitCertificate } from './service';

const isPdf = (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-';
const isJpeg = (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const isPng = (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

/** The first bytes of each certificate type (domain/documents/certificate.ts names the types). */
const MAGIC: Record<string, (b: Buffer) => boolean> = { pdf: isPdf, jpg: isJpeg, jpeg: isJpeg, png: isPng };

const invalidType = () => new ApiError(400, 'INVALID_FILE_TYPE', MSG.FILE_TYPE_NOT_ALLOWED, [{ field: 'file', msg: MSG.FILE_TYPE_NOT_ALLOWED }]);

/** A body that is not valid multipart is the request's fault (400); size limits and file-system errors pass. */
function malformed(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; statusCode?: number; errno?: number; syscall?: string };
  if (e.statusCode === 413 || (typeof e.code === 'string' && e.code.startsWith('FST_')) || typeof e.errno === 'number' || typeof e.syscall === 'string') return err;
  return new ApiError(400, 'VALIDATION_ERROR', 'The body is not valid multipart/form-data', [{ field: 'body', msg: 'malformed multipart/form-data' }]);
}

export const withholdingHandlers: Handlers = {
  async uploadWithholdingCertificate(req, reply, ctx) {
    const userId = req.user!.id;
    await assertCertificateWanted(ctx, req.params.orderId, userId);
    const wait = await uploadWait(ctx, { kind: 'student', userId });
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      throw new ApiError(429, 'RATE_LIMITED', MSG.TOO_MANY_REQUESTS);
    }
    if (!req.isMultipart()) throw new ApiError(400, 'VALIDATION_ERROR', MSG.FILE_REQUIRED, [{ field: 'file', msg: MSG.FILE_REQUIRED }]);
    const tmpFiles: string[] = [];
    try {
      let got: { tmp: string; original: string; mime: string; ext: string } | null = null;
      try {
        for await (const part of req.parts()) {
          if (part.type !== 'file') continue;
          if (got || part.fieldname !== 'file') {
            part.file.resume();
            throw new ApiError(400, 'VALIDATION_ERROR', MSG.ONE_FILE_ONLY, [{ field: part.fieldname, msg: MSG.ONE_FILE_ONLY }]);
          }
          const ext = extname(part.filename || '').slice(1).toLowerCase();
          const mimes = CERTIFICATE_FILE_TYPES[ext];
          const magic = MAGIC[ext];
          if (/[\u0000-\u001f\u007f]|[\uD800-\uDFFF]/.test(part.filename ?? '') || !mimes || !magic || !mimes.includes(part.mimetype.toLowerCase())) {
            part.file.resume();
            throw invalidType();
          }
          const tmp = join(ctx.uploadsDir, `.tmp-${randomBytes(8).toString('hex')}`);
          tmpFiles.push(tmp);
          await pipeline(part.file, createWriteStream(tmp));
          if (part.file.truncated) throw new ApiError(413, 'FILE_TOO_LARGE', MSG.FILE_TOO_LARGE);
          const fh = await open(tmp, 'r');
          const head = Buffer.alloc(8);
          await fh.read(head, 0, 8, 0);
          await fh.close();
          if (!magic(head)) throw invalidType();
          got = { tmp, original: part.filename.slice(0, 255), mime: part.mimetype.toLowerCase(), ext };
        }
      } catch (err) {
        throw malformed(err);
      }
      if (!got) throw new ApiError(400, 'VALIDATION_ERROR', MSG.FILE_REQUIRED, [{ field: 'file', msg: MSG.FILE_REQUIRED }]);
      const size = (await stat(got.tmp)).size;
      const name = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}.${got.ext}`;
      const row = await submitCertificate(ctx, req.params.orderId, userId, { tmp: got.tmp, original: got.original, mime: got.mime, size }, name);
      reply.code(201);
      return { success: true, data: certificateForApi(row) };
    } finally {
      await Promise.all(tmpFiles.map((f) => rm(f, { force: true })));
    }
  },
};

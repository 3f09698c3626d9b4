/**
 * Uploads: who an upload counts against, the rate limits, the storage rules and the visitors'
 * pool (config `abuse`, README "Security"), storing a checked file, and the housekeeping purge of
 * visitor uploads nothing uses. Visitors (upload tokens) draw from a pool of their own
 * (VISITOR_POOL_MB, all visitors together), each address may take UPLOAD_TOKENS_PER_DAY tokens and
 * upload VISITOR_UPLOAD_MB_PER_DAY in 24 hours, and a visitor upload never uses the last
 * STUDENT_RESERVE_MB of free storage (kept for students' payment slips). The route
 * (server/routes/uploads.ts) reads the multipart body and checks the file's type; the rows are
 * server/repos/uploads.ts's.
 */
import { createHash, randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../context';
import type { Queryable } from '../db/index';
import { ApiError } from '../errors';
import { MSG } from '../../domain/messages';
import { bytesToGb, exceedsStorage } from '../../domain/forms/upload';
import { addressHash } from '../orders/holds';
import {
  deleteExpiredUploadTokens,
  deleteUnusedVisitorUploads,
  insertUpload,
  insertUploadToken,
  lockStorage,
  uploadsSince,
  uploadTokenIsLive,
  uploadTokensSince,
  usedBy,
  usedStorage,
  visitorUsage,
  type Uploader,
} from '../repos/uploads';

export type { Uploader } from '../repos/uploads';

const DAY_MS = 86_400_000;
const RATE_WINDOW_MS = 10 * 60_000;

export const tokenHash = (t: string): string => createHash('sha256').update(t).digest('base64url');

/** A student, or the visitor holding a live registration upload token; null for anyone else. */
export async function findUploader(ctx: AppContext, user: { id: number; role: string } | null, rawToken: string | undefined, ip: string): Promise<Uploader | null> {
  if (user && user.role === 'student') return { kind: 'student', userId: user.id };
  if (rawToken && rawToken.length <= 100 && (await uploadTokenIsLive(ctx.db, tokenHash(rawToken), ctx.clock.now()))) {
    return { kind: 'visitor', token: tokenHash(rawToken), address: addressHash(ip) };
  }
  return null;
}

/** Seconds until `first` leaves a window of `windowMs` (at least 1), or `fallback` when unknown. */
function secondsLeft(first: Date | null, windowMs: number, now: Date, fallback: number): number {
  return first ? Math.max(1, Math.ceil((new Date(first).getTime() + windowMs - now.getTime()) / 1000)) : fallback;
}

/** Seconds the uploader must wait (over UPLOADS_PER_10_MINUTES), or null when they may upload now. */
export async function uploadWait(ctx: AppContext, who: Uploader): Promise<number | null> {
  const max = ctx.config.uploadsPer10Minutes;
  if (max <= 0) return null;
  const now = ctx.clock.now();
  const row = await uploadsSince(ctx.db, who, new Date(now.getTime() - RATE_WINDOW_MS));
  return row.n >= max ? secondsLeft(row.first, RATE_WINDOW_MS, now, 60) : null;
}

export type TokenIssue = { kind: 'issued'; token: string; expiresAt: Date } | { kind: 'wait'; seconds: number };

/**
 * A registration upload token for this address, unless it took its tokens for the last 24 hours
 * (then how long to wait). Only the token's hash is stored; expired tokens are kept a day, they
 * count towards their address's daily number.
 */
export async function issueUploadToken(ctx: AppContext, ip: string): Promise<TokenIssue> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ctx.config.uploadTokenMinutes * 60_000);
  const address = addressHash(ip);
  await deleteExpiredUploadTokens(ctx.db, now, new Date(now.getTime() - DAY_MS));
  const max = ctx.config.abuse.uploadTokensPerAddressPerDay;
  if (max > 0) {
    const row = await uploadTokensSince(ctx.db, address, new Date(now.getTime() - DAY_MS));
    if (row.n >= max) return { kind: 'wait', seconds: secondsLeft(row.first, DAY_MS, now, 3600) };
  }
  await insertUploadToken(ctx.db, tokenHash(token), now, expiresAt, address);
  return { kind: 'issued', token, expiresAt };
}

/** Storage used and the quota, in bytes. */
export async function storageDetails(ctx: AppContext): Promise<{ used: number; total: number }> {
  return { used: await usedStorage(ctx.db), total: ctx.config.storageQuotaBytes };
}

/**
 * A visitor's file may be stored (inside the upload transaction, under the storage lock): the
 * visitors' pool has room, the address has not uploaded its bytes for the day, and the free
 * storage left afterwards is still at least the students' reserve. Else 422 OUT_OF_STORAGE.
 */
async function visitorMayStore(q: Queryable, ctx: AppContext, who: Extract<Uploader, { kind: 'visitor' }>, size: number, free: number): Promise<void> {
  const limits = ctx.config.abuse;
  const full = () => new ApiError(422, 'OUT_OF_STORAGE', MSG.VISITOR_UPLOADS_FULL);
  if (free - size < limits.studentReserveBytes) throw full();
  const { pool, today } = await visitorUsage(q, who.address, new Date(ctx.clock.now().getTime() - DAY_MS));
  if (limits.visitorPoolBytes > 0 && pool + size > limits.visitorPoolBytes) throw full();
  if (limits.visitorBytesPerAddressPerDay > 0 && today + size > limits.visitorBytesPerAddressPerDay) throw full();
}

export interface CheckedFile {
  /** Where the received file waits (in the uploads folder). */
  tmp: string;
  original: string;
  mime: string;
  size: number;
}

/**
 * Stores a received, checked file under `name`: under the storage lock, the shop's free storage,
 * the uploader's own share (one student or one registration token cannot fill the shop's
 * storage) and, for visitors, their pool, their address's daily bytes and the students' reserve;
 * then the row and the file's final place.
 */
export async function storeUpload(ctx: AppContext, who: Uploader, file: CheckedFile, name: string): Promise<void> {
  const size = file.size;
  await ctx.db.tx(async (q) => {
    await lockStorage(q);
    const free = ctx.config.storageQuotaBytes - (await usedStorage(q));
    if (exceedsStorage(size, bytesToGb(Math.max(0, free)))) throw new ApiError(422, 'OUT_OF_STORAGE', MSG.OUT_OF_STORAGE);
    const share = who.kind === 'student' ? ctx.config.uploadShareBytes.student : ctx.config.uploadShareBytes.visitor;
    if ((await usedBy(q, who)) + size > share) throw new ApiError(422, 'OUT_OF_STORAGE', MSG.OUT_OF_STORAGE);
    if (who.kind === 'visitor') await visitorMayStore(q, ctx, who, size, free);
    await insertUpload(q, { uploader: who, fileName: name, originalName: file.original, mime: file.mime, size, createdAt: ctx.clock.now() });
    await rename(file.tmp, join(ctx.uploadsDir, name));
  });
}

/**
 * Housekeeping: visitor uploads older than VISITOR_UPLOAD_KEEP_HOURS that no registration
 * (a user's profile) and no payment report refers to are deleted (marked, file removed).
 * Returns how many.
 */
export async function purgeVisitorUploads(q: Queryable, now: Date, keepHours: number, uploadsDir: string | null): Promise<number> {
  if (keepHours <= 0) return 0;
  const rows = await deleteUnusedVisitorUploads(q, new Date(now.getTime() - keepHours * 3_600_000));
  if (uploadsDir) await Promise.all(rows.map((f) => rm(join(uploadsDir, f.file_name), { force: true })));
  return rows.length;
}
